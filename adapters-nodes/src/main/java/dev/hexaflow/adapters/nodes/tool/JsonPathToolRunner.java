package dev.hexaflow.adapters.nodes.tool;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.jayway.jsonpath.Configuration;
import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.InvalidPathException;
import com.jayway.jsonpath.JsonPath;
import com.jayway.jsonpath.JsonPathException;
import com.jayway.jsonpath.Option;
import com.jayway.jsonpath.spi.json.JacksonJsonProvider;
import com.jayway.jsonpath.spi.mapper.JacksonMappingProvider;
import dev.hexaflow.workflow.engine.StopSignal;
import dev.hexaflow.workflow.port.out.ToolRunner;
import dev.hexaflow.domain.tool.ToolDescription;
import dev.hexaflow.domain.tool.ToolMessage;
import dev.hexaflow.domain.tool.ToolProviderType;
import dev.hexaflow.domain.tool.ToolRef;
import dev.hexaflow.domain.workflow.Values;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Dify's built-in {@code json_process} tools on Jayway JsonPath (Dify uses jsonpath_ng; the paths Dify's users
 * write, {@code $.a.b[0]}, {@code $..name}, {@code $.items[*].id}, read the same): parse, json_replace,
 * json_insert and json_delete, each answering one text as Dify's do, with their messages; and
 * {@code builtin/json_parse}, which Dify's own test workflows name, answering the parsed value as {@code result}.
 */
public final class JsonPathToolRunner implements ToolRunner {

    static final String PROVIDER = "json_process";
    /** The provider Dify's fixture {@code http_request_with_json_tool_workflow.yml} names. */
    static final String FIXTURE_PROVIDER = "builtin";

    private static final ObjectMapper JSON = new ObjectMapper();
    /** Jackson reads the document into maps and lists the tools change in place. */
    private static final Configuration PATHS = Configuration.builder().jsonProvider(new JacksonJsonProvider(JSON))
            .mappingProvider(new JacksonMappingProvider(JSON)).options(Option.SUPPRESS_EXCEPTIONS).build();
    private static final Configuration PATH_LIST = PATHS.addOptions(Option.AS_PATH_LIST, Option.ALWAYS_RETURN_LIST);
    private static final Pattern LAST_KEY = Pattern.compile("^(.*)\\['((?:[^'\\\\]|\\\\.)*)'\\]$");

    private static final Map<String, ToolDescription> TOOLS = Map.of(
            "parse", tool("parse", "A tool for extracting JSON objects", List.of("content", "json_filter",
                    "ensure_ascii"), Map.of("ensure_ascii", "boolean"), List.of("content", "json_filter")),
            "json_replace", tool("json_replace", "A tool for replacing JSON content", List.of("content", "query",
                    "replace_pattern", "replace_value", "replace_model", "ensure_ascii"),
                    Map.of("ensure_ascii", "boolean"), List.of("content", "query", "replace_value",
                            "replace_model")),
            "json_insert", tool("json_insert", "A tool for inserting JSON content", List.of("content", "query",
                    "new_value", "index", "create_path", "ensure_ascii"), Map.of("index", "number",
                    "ensure_ascii", "boolean"), List.of("content", "query", "new_value")),
            "json_delete", tool("json_delete", "A tool for deleting JSON content", List.of("content", "query",
                    "ensure_ascii"), Map.of("ensure_ascii", "boolean"), List.of("content", "query")));

    private static final ToolDescription JSON_PARSE = new ToolDescription(new ToolRef(ToolProviderType.BUILTIN,
            FIXTURE_PROVIDER, "json_parse"), "Parses a JSON text into the value result",
            BuiltinArguments.schema(List.of("json_string"), Map.of(), List.of("json_string")));

    /** The tools it runs, as {@code provider/tool}. */
    public static List<String> labels() {
        List<String> labels = new java.util.ArrayList<>(TOOLS.keySet().stream().sorted()
                .map(tool -> PROVIDER + "/" + tool).toList());
        labels.add(JSON_PARSE.ref().label());
        return List.copyOf(labels);
    }

    @Override
    public Optional<ToolDescription> describe(ToolRef tool) {
        if (tool.type() != ToolProviderType.BUILTIN && tool.type() != ToolProviderType.PLUGIN) {
            return Optional.empty();
        }
        ToolDescription known = tool.provider().equals(PROVIDER) ? TOOLS.get(tool.tool())
                : tool.provider().equals(FIXTURE_PROVIDER) && tool.tool().equals("json_parse") ? JSON_PARSE : null;
        return Optional.ofNullable(known).map(d -> new ToolDescription(tool, d.description(), d.inputSchema()));
    }

    @Override
    public List<ToolMessage> run(ToolRef tool, Map<String, Object> arguments, StopSignal stop) {
        BuiltinArguments args = new BuiltinArguments(arguments);
        if (tool.provider().equals(FIXTURE_PROVIDER)) {
            Object value = read(args.text("json_string", ""));
            return List.of(new ToolMessage.Json(value), new ToolMessage.Variable("result", value));
        }
        String text = switch (tool.tool()) {
            case "parse" -> parse(args);
            case "json_replace" -> replace(args);
            case "json_insert" -> insert(args);
            case "json_delete" -> delete(args);
            default -> throw new ToolException("The json_process provider has no tool " + tool.tool());
        };
        return List.of(new ToolMessage.Text(text));
    }

    /** Dify's answer for the first of the required texts that is missing or empty. */
    private static Optional<String> missing(BuiltinArguments args, String... required) {
        for (String name : required) {
            if (args.text(name, "").isEmpty()) {
                return Optional.of("Invalid parameter " + name);
            }
        }
        return Optional.empty();
    }

    private static String parse(BuiltinArguments args) {
        Optional<String> missing = missing(args, "content", "json_filter");
        if (missing.isPresent()) {
            return missing.get();
        }
        String content = args.text("content", "");
        String filter = args.text("json_filter", "");
        boolean ascii = args.bool("ensure_ascii", true);
        try {
            DocumentContext document = JsonPath.using(PATHS).parse(read(content));
            List<Object> found = new ArrayList<>();
            for (String path : paths(document, filter)) {
                found.add(document.read(path));
            }
            Object result = found.size() == 1 ? found.get(0) : found;
            if (result instanceof Map<?, ?> || result instanceof List<?>) {
                return dumps(result, ascii);
            }
            return result instanceof String s ? s : Values.pythonRepr(result);
        } catch (ToolException | JsonPathException e) {
            return e.getMessage();
        }
    }

    private static String replace(BuiltinArguments args) {
        Optional<String> missing = missing(args, "content", "query", "replace_value");
        if (missing.isPresent()) {
            return missing.get();
        }
        String content = args.text("content", "");
        String query = args.text("query", "");
        String value = args.text("replace_value", "");
        String model = args.text("replace_model", "pattern");
        if (model.isEmpty()) {
            return "Invalid parameter replace_model";
        }
        String pattern = args.text("replace_pattern", "");
        if (model.equals("pattern") && pattern.isEmpty()) {
            return "Invalid parameter replace_pattern";
        }
        boolean ascii = args.bool("ensure_ascii", true);
        try {
            Object data = read(content);
            DocumentContext document = JsonPath.using(PATHS).parse(data);
            for (String path : paths(document, query)) {
                switch (model) {
                    case "pattern" -> {
                        Object old = document.read(path);
                        if (!(old instanceof String s)) {
                            return "'" + pythonType(old) + "' object has no attribute 'replace'";
                        }
                        document.set(path, s.replace(pattern, value));
                    }
                    case "key" -> renameKey(document, path, value);
                    case "value" -> document.set(path, value);
                    default -> {
                        return "Failed to replace JSON content";
                    }
                }
            }
            return dumps(document.json(), ascii);
        } catch (ToolException | JsonPathException e) {
            return e.getMessage();
        }
    }

    /** Python's pop-and-set: the renamed key moves to the end of its object. */
    @SuppressWarnings("unchecked")
    private static void renameKey(DocumentContext document, String path, String newKey) {
        Matcher last = LAST_KEY.matcher(path);
        if (!last.matches()) {
            return;
        }
        Object parent = document.read(last.group(1));
        String key = last.group(2).replace("\\'", "'");
        if (parent instanceof Map<?, ?> map && map.containsKey(key)) {
            Map<String, Object> object = (Map<String, Object>) map;
            object.put(newKey, object.remove(key));
        }
    }

    @SuppressWarnings("unchecked")
    private static String insert(BuiltinArguments args) {
        Optional<String> missing = missing(args, "content", "query", "new_value");
        if (missing.isPresent()) {
            return missing.get();
        }
        String content = args.text("content", "");
        String query = args.text("query", "");
        String given = args.text("new_value", "");
        Long index = args.wholeNumber("index");
        boolean createPath = args.bool("create_path", false);
        try {
            Object data = read(content);
            Object value = readOrText(given);
            DocumentContext document = JsonPath.using(PATHS).parse(data);
            List<String> paths = paths(document, query);
            if (paths.isEmpty() && createPath) {
                create(data, query, value);
            }
            for (String path : paths) {
                Object found = document.read(path);
                if (found instanceof Map<?, ?> map) {
                    if (!(value instanceof Map<?, ?> entries)) {
                        return "Cannot insert non-dict value into dict";
                    }
                    ((Map<String, Object>) map).putAll((Map<String, Object>) entries);
                } else if (found instanceof List<?> list) {
                    List<Object> items = (List<Object>) list;
                    if (index == null) {
                        items.add(value);
                    } else {
                        items.add(pythonInsertIndex(index, items.size()), value);
                    }
                } else {
                    document.set(path, value);
                }
            }
            return dumps(document.json(), true);
        } catch (ToolException | JsonPathException e) {
            return e.getMessage();
        }
    }

    /** Dify's path creation for a path that matches nothing: dotted names, {@code name[i]} for list items. */
    @SuppressWarnings("unchecked")
    private static void create(Object data, String query, Object value) {
        if (!(data instanceof Map<?, ?>)) {
            throw new ToolException("'" + pythonType(data) + "' object does not support item assignment");
        }
        String[] parts = query.replaceAll("^\\$+|\\$+$", "").replaceAll("^\\.+|\\.+$", "").split("\\.");
        Map<String, Object> current = (Map<String, Object>) data;
        for (int i = 0; i < parts.length; i++) {
            String part = parts[i];
            Object next;
            if (part.contains("[") && part.endsWith("]")) {
                String name = part.substring(0, part.indexOf('['));
                int at = Integer.parseInt(part.substring(part.indexOf('[') + 1, part.length() - 1).strip());
                List<Object> list = (List<Object>) current.computeIfAbsent(name, k -> new ArrayList<>());
                while (list.size() <= at) {
                    list.add(new LinkedHashMap<>());
                }
                next = list.get(at);
            } else if (i == parts.length - 1) {
                current.put(part, value);
                return;
            } else {
                next = current.computeIfAbsent(part, k -> new LinkedHashMap<>());
            }
            if (!(next instanceof Map<?, ?>)) {
                throw new ToolException("'" + pythonType(next) + "' object does not support item assignment");
            }
            current = (Map<String, Object>) next;
        }
    }

    private static String delete(BuiltinArguments args) {
        Optional<String> missing = missing(args, "content", "query");
        if (missing.isPresent()) {
            return missing.get();
        }
        String content = args.text("content", "");
        String query = args.text("query", "");
        boolean ascii = args.bool("ensure_ascii", true);
        try {
            DocumentContext document = JsonPath.using(PATHS).parse(read(content));
            List<String> paths = new ArrayList<>(paths(document, "$." + query.replaceAll("^[$.]+", "")));
            // Later list items first, so that deleting one does not move the next.
            java.util.Collections.reverse(paths);
            for (String path : paths) {
                document.delete(path);
            }
            return dumps(document.json(), ascii);
        } catch (ToolException | JsonPathException e) {
            return "Failed to delete JSON content: Delete operation failed: " + e.getMessage();
        }
    }

    private static List<String> paths(DocumentContext document, String query) {
        try {
            List<String> paths = JsonPath.using(PATH_LIST).parse((Object) document.json()).read(query);
            return paths == null ? List.of() : paths;
        } catch (InvalidPathException e) {
            throw new ToolException("Invalid JSON path '" + query + "': " + e.getMessage());
        }
    }

    /** The name Python gives a JSON value's type, for its error messages. */
    private static String pythonType(Object value) {
        if (value == null) {
            return "NoneType";
        }
        if (value instanceof Boolean) {
            return "bool";
        }
        if (value instanceof Double || value instanceof Float || value instanceof java.math.BigDecimal) {
            return "float";
        }
        if (value instanceof Number) {
            return "int";
        }
        return value instanceof Map<?, ?> ? "dict" : value instanceof List<?> ? "list" : "str";
    }

    private static int pythonInsertIndex(long index, int size) {
        long at = index < 0 ? Math.max(0, size + index) : Math.min(index, size);
        return (int) at;
    }

    private static Object read(String content) {
        try {
            return JSON.readValue(content, Object.class);
        } catch (JsonProcessingException e) {
            throw new ToolException("Invalid JSON: " + e.getOriginalMessage());
        }
    }

    private static Object readOrText(String text) {
        try {
            return JSON.readValue(text, Object.class);
        } catch (JsonProcessingException e) {
            return text;
        }
    }

    /** Python's {@code json.dumps}: ", " and ": ", and with {@code ensure_ascii} every non-ASCII char escaped. */
    static String dumps(Object value, boolean ensureAscii) {
        String json = Values.pythonJson(value);
        if (!ensureAscii) {
            return json;
        }
        StringBuilder out = new StringBuilder(json.length());
        for (int i = 0; i < json.length(); i++) {
            char c = json.charAt(i);
            if (c > 0x7e) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    private static ToolDescription tool(String name, String description, List<String> parameters,
            Map<String, String> types, List<String> required) {
        return new ToolDescription(new ToolRef(ToolProviderType.BUILTIN, PROVIDER, name), description,
                BuiltinArguments.schema(parameters, types, required));
    }
}
