package dev.hexaflow.workflow.engine;

import dev.hexaflow.domain.workflow.DataTree;
import dev.hexaflow.domain.workflow.Edge;
import dev.hexaflow.domain.workflow.Graph;
import dev.hexaflow.domain.workflow.Node;
import dev.hexaflow.domain.workflow.NodeType;
import dev.hexaflow.domain.workflow.RunEvent;
import dev.hexaflow.domain.workflow.Values;
import dev.hexaflow.domain.workflow.VariablePool;
import dev.hexaflow.domain.workflow.VariableSelector;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Matcher;

/**
 * Streams the response nodes (a chatflow's answers, a workflow's end) as Dify's ResponseStreamCoordinator does,
 * for one level of the graph (the top level, or one round of an iteration or loop). An answer streams its
 * template; an end its outputs' values with "\n" between them. Each becomes a session once its node is sure to
 * run: once a path leads to it from the level's start on which every branch, container or assigner that writes
 * what it shows has let it through. One session streams at a time, in the order they became sure (nearer the start
 * first); the others wait. A session streams its segments left to right: text at once, a variable as soon as it
 * is ready (the node of this level that makes it has finished; {@code sys}, {@code env}, {@code conversation} and
 * an outer level's values are ready from the start), a model's text chunk by chunk as the model makes it, a
 * variable of a node that was skipped not at all. What becomes ready as a node finishes is sent before that
 * node's finished event, as Dify does. Dify activates sessions that become sure together in its set's order; here
 * the one nearer the start goes first.
 */
final class ResponseCoordinator {

    /** A piece of a response: text, or the variable at {@code selector}. */
    private record Segment(String text, VariableSelector selector) {
    }

    /** One response node's streaming: its segments and how far it got. */
    private static final class Session {
        final Node node;
        final List<Segment> segments;
        final Set<List<String>> shown = new HashSet<>();
        int index;

        Session(Node node) {
            this.node = node;
            this.segments = node.type() == NodeType.END ? endSegments(node)
                    : segments(node.data().string("answer", ""));
            for (Segment segment : segments) {
                if (segment.selector() != null) {
                    shown.add(segment.selector().path().subList(0, 2));
                }
            }
        }

        boolean complete() {
            return index >= segments.size();
        }
    }

    /** Text a node streams under one selector: what is not sent yet, and whether the node is done with it. */
    private static final class Stream {
        final ArrayDeque<String> unsent = new ArrayDeque<>();
        boolean closed;
    }

    private final RunState run;
    private final Graph graph;
    private final Node root;
    private final VariablePool pool;
    private final Set<String> level = new HashSet<>();
    private final List<Session> unsure = new ArrayList<>();
    private final ArrayDeque<Session> waiting = new ArrayDeque<>();
    private final Set<String> takenEdges = new HashSet<>();
    private final Set<String> finished = new HashSet<>();
    private final Set<String> skipped = new HashSet<>();
    private final Map<List<String>, Stream> streams = new HashMap<>();
    private final Set<List<String>> shown = new HashSet<>();
    private Session active;

    /**
     * @param container the iteration or loop whose round this is, or empty for the top level
     * @param root the level's start node
     * @param pool the level's variables (a round's own pool in an iteration)
     */
    ResponseCoordinator(RunState run, Graph graph, Optional<String> container, Node root, VariablePool pool) {
        this.run = run;
        this.graph = graph;
        this.root = root;
        this.pool = pool;
        for (Node node : graph.children(container)) {
            level.add(node.id());
        }
        Map<String, Integer> depth = depths(root);
        for (Node node : graph.children(container)) {
            if (responds(node) && depth.containsKey(node.id())) {
                Session session = new Session(node);
                unsure.add(session);
                session.segments.stream().filter(segment -> segment.selector() != null)
                        .forEach(segment -> shown.add(segment.selector().path()));
            }
        }
        unsure.sort(Comparator.comparingInt(session -> depth.get(session.node.id())));
    }

    /** An end node's outputs, each its value, with "\n" between them, as Dify's end node streams them. */
    private static List<Segment> endSegments(Node end) {
        List<Segment> segments = new ArrayList<>();
        for (DataTree output : end.data().trees("outputs")) {
            if (!segments.isEmpty()) {
                segments.add(new Segment("\n", null));
            }
            segments.add(new Segment(null, output.selector("value_selector")));
        }
        return segments;
    }

    /** Whether a level of the graph holds a node that streams a response (answer or end). */
    static boolean responds(Node node) {
        return node.type() == NodeType.ANSWER || node.type() == NodeType.END;
    }

    /** The answer's template cut into text and variables, as Dify's answer node reads it. */
    static List<Segment> segments(String template) {
        List<Segment> segments = new ArrayList<>();
        Matcher matcher = VariablePool.REFERENCE.matcher(template);
        int last = 0;
        while (matcher.find()) {
            if (matcher.start() > last) {
                segments.add(new Segment(template.substring(last, matcher.start()), null));
            }
            segments.add(new Segment(null, VariableSelector.ofDotted(matcher.group(1))));
            last = matcher.end();
        }
        if (last < template.length()) {
            segments.add(new Segment(template.substring(last), null));
        }
        return segments;
    }

    /**
     * Where a node of this level streams its text under {@code [nodeId, variable]}, or empty where no response of
     * this level shows it (then nothing is kept: the text is in the node's outputs).
     */
    Optional<Consumer<String>> streamOf(String nodeId, String variable) {
        List<String> selector = List.of(nodeId, variable);
        if (!shown.contains(selector)) {
            return Optional.empty();
        }
        return Optional.of(piece -> {
            synchronized (this) {
                if (piece.isEmpty()) {
                    return;
                }
                Stream stream = streams.computeIfAbsent(selector, key -> new Stream());
                if (!stream.closed) {
                    stream.unsent.add(piece);
                    flush();
                }
            }
        });
    }

    /**
     * Whether a response this level is sure to reach (streaming or waiting its turn) shows the node's
     * {@code text} or {@code reasoning_content}: where Dify lets the node's reasoning stream out.
     */
    synchronized boolean showsReasoningOf(String nodeId) {
        List<List<String>> sources = List.of(List.of(nodeId, "text"), List.of(nodeId, "reasoning_content"));
        List<Session> reached = new ArrayList<>(waiting);
        if (active != null) {
            reached.add(active);
        }
        unsure.stream().filter(this::sure).forEach(reached::add);
        return reached.stream().anyMatch(session -> sources.stream().anyMatch(session.shown::contains));
    }

    /**
     * A node of this level ended with its outputs in the pool: its streams close, the edges it took count, and
     * whatever that makes ready streams now, before the node's finished event.
     */
    synchronized void nodeFinished(Node node, String handle) {
        finished.add(node.id());
        streams.forEach((selector, stream) -> {
            if (selector.get(0).equals(node.id())) {
                stream.closed = true;
            }
        });
        if (handle != null) {
            for (Edge edge : graph.outgoing(node.id())) {
                if (edge.sourceHandle().equals(handle)) {
                    takenEdges.add(edge.id());
                }
            }
        }
        activateSure();
        flush();
    }

    /** A node of this level that will not run: a response waiting for its variables goes past them. */
    synchronized void nodeSkipped(String nodeId) {
        skipped.add(nodeId);
        unsure.removeIf(session -> session.node.id().equals(nodeId));
        flush();
    }

    /** Moves every response now sure to run to the queue, nearest first, and starts one if none streams. */
    private void activateSure() {
        for (var sessions = unsure.iterator(); sessions.hasNext(); ) {
            Session session = sessions.next();
            if (sure(session)) {
                sessions.remove();
                waiting.add(session);
            }
        }
        if (active == null) {
            active = waiting.poll();
        }
    }

    /** Whether a path leads from the start to the response through only taken or non-blocking edges. */
    private boolean sure(Session session) {
        ArrayDeque<String> todo = new ArrayDeque<>(List.of(root.id()));
        Set<String> seen = new HashSet<>(todo);
        while (!todo.isEmpty()) {
            String id = todo.poll();
            if (id.equals(session.node.id())) {
                return true;
            }
            for (Edge edge : graph.outgoing(id)) {
                boolean open = takenEdges.contains(edge.id()) || !blocks(edge, session);
                if (open && seen.add(edge.target())) {
                    todo.add(edge.target());
                }
            }
        }
        return false;
    }

    /**
     * Whether an edge on the way decides if the response runs or what it shows: one out of a branch (if-else,
     * question-classifier, an error strategy's branch), out of a container, or out of an assigner that writes a
     * variable the response shows.
     */
    private boolean blocks(Edge edge, Session session) {
        Node source = graph.node(edge.source()).orElseThrow();
        NodeType type = source.type();
        if (type == NodeType.IF_ELSE || type == NodeType.QUESTION_CLASSIFIER || type.isContainer()
                || !edge.sourceHandle().equals(Edge.DEFAULT_HANDLE)) {
            return true;
        }
        return type == NodeType.ASSIGNER && writes(source).stream().anyMatch(session.shown::contains);
    }

    /** The variables an assigner (version 1 or 2) writes, as [node, variable]. */
    private static List<List<String>> writes(Node assigner) {
        List<List<String>> written = new ArrayList<>();
        DataTree data = assigner.data();
        try {
            if (data.has("items")) {
                for (DataTree item : data.trees("items")) {
                    written.add(item.selector("variable_selector").path().subList(0, 2));
                }
            } else {
                written.add(data.selector("assigned_variable_selector").path().subList(0, 2));
            }
        } catch (RuntimeException unreadable) {
            // The assigner's own check refuses such data before a run; here it just blocks nothing.
        }
        return written;
    }

    /** Streams the active session as far as what is ready allows, then the next, until one must wait. */
    private void flush() {
        while (active != null) {
            Session session = active;
            while (!session.complete()) {
                Segment segment = session.segments.get(session.index);
                if (segment.selector() == null) {
                    send(segment.text(), List.of(session.node.id(), "answer"));
                    session.index++;
                } else if (sendVariable(segment.selector())) {
                    session.index++;
                } else {
                    return;
                }
            }
            active = waiting.poll();
        }
    }

    /** Sends what is ready of a variable; answers whether it is all sent. */
    private boolean sendVariable(VariableSelector selector) {
        String source = selector.nodeId();
        boolean ofThisLevel = level.contains(source);
        if (ofThisLevel && skipped.contains(source)) {
            return true;
        }
        Stream stream = streams.get(selector.path());
        if (stream != null) {
            while (!stream.unsent.isEmpty()) {
                send(stream.unsent.poll(), selector.path());
            }
            return stream.closed;
        }
        if (ofThisLevel && !finished.contains(source)) {
            return false;
        }
        send(Values.markdown(pool.get(selector).orElse(null)), selector.path());
        return true;
    }

    private void send(String text, List<String> selector) {
        if (!text.isEmpty()) {
            run.emit(new RunEvent.TextChunk(text, selector));
        }
    }

    /** Each node's distance in edges from the start, for the order of responses that become sure together. */
    private Map<String, Integer> depths(Node start) {
        Map<String, Integer> depth = new LinkedHashMap<>();
        ArrayDeque<String> todo = new ArrayDeque<>(List.of(start.id()));
        depth.put(start.id(), 0);
        while (!todo.isEmpty()) {
            String id = todo.poll();
            for (Edge edge : graph.outgoing(id)) {
                if (!depth.containsKey(edge.target())) {
                    depth.put(edge.target(), depth.get(id) + 1);
                    todo.add(edge.target());
                }
            }
        }
        return depth;
    }
}
