package dev.hexaflow.app.cli;

import dev.hexaflow.app.Main;
import dev.hexaflow.app.config.Configuration;
import dev.hexaflow.app.wiring.KnowledgeModule;
import dev.hexaflow.app.wiring.Storage;
import dev.hexaflow.application.common.port.out.StorageHealth;
import dev.hexaflow.application.knowledge.port.in.AddDocumentCommand;
import dev.hexaflow.application.knowledge.port.in.CloseInterruptedIndexingUseCase;
import dev.hexaflow.application.knowledge.port.in.CreateKnowledgeBaseCommand;
import dev.hexaflow.application.knowledge.port.in.KnowledgeException;
import dev.hexaflow.domain.knowledge.DocumentStatus;
import dev.hexaflow.domain.knowledge.IndexingTechnique;
import dev.hexaflow.domain.knowledge.KnowledgeBase;
import dev.hexaflow.domain.knowledge.KnowledgeDocument;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * {@code hexaflow knowledge ...}: knowledge bases on the data dir of a stopped server. Adding files prints a
 * progress line on stderr (documents, chunks, embeddings per second) and leaves a file that was added before and
 * has not changed as it is.
 */
public final class KnowledgeCommands {

    private KnowledgeCommands() {
    }

    public static int create(Command.CreateKnowledgeBase command, PrintStream out, PrintStream err) {
        try (Storage storage = Storage.open(command.config());
                KnowledgeModule knowledge = module(storage, command.config())) {
            KnowledgeBase base = knowledge.bases.create(new CreateKnowledgeBaseCommand(command.id(),
                    command.name(), "", IndexingTechnique.HIGH_QUALITY, Optional.empty()));
            out.println("id         " + base.id());
            out.println("name       " + base.name());
            out.println("search     " + base.retrieval().method().wireName() + (base.keywordOnly()
                    ? "  (keyword-only: HEXAFLOW_EMBEDDING_MODEL is not set)"
                    : "  (embedded with " + base.embeddingModel().orElseThrow() + ")"));
            return Main.OK;
        } catch (KnowledgeException e) {
            err.println("hexaflow: " + e.getMessage());
            return Main.FAILED;
        }
    }

    public static int add(Command.AddKnowledgeFiles command, PrintStream out, PrintStream err) {
        for (Path file : command.files()) {
            if (!Files.isRegularFile(file)) {
                err.println("hexaflow: no file " + file);
                return Main.USAGE;
            }
        }
        try (Storage storage = Storage.open(command.config());
                KnowledgeModule knowledge = module(storage, command.config())) {
            Optional<KnowledgeBase> found = find(knowledge, command.base());
            if (found.isEmpty()) {
                err.println("hexaflow: no knowledge base " + command.base() + " (its id or name; see knowledge list)");
                return Main.FAILED;
            }
            KnowledgeBase base = found.get();
            if (!storage.instance().shared()) {
                // The data directory is this command's alone: what a server left indexing was cut off.
                knowledge.interrupted.closeInterrupted(CloseInterruptedIndexingUseCase.STOPPED);
            }
            Tally tally = new Tally(knowledge.documents.documents(base.id()));
            for (Path file : command.files()) {
                addOne(knowledge, base, file, tally, err);
                double seconds = Math.max(1e-3, (System.nanoTime() - tally.started) / 1e9);
                err.printf(Locale.ROOT, "\r%d/%d documents  %d chunks  %.1f embeddings/s  ", tally.done,
                        command.files().size(), tally.chunks, tally.embedded / seconds);
                err.flush();
            }
            err.println();
            out.printf(Locale.ROOT, "%d added, %d unchanged, %d failed; %d chunks into %s (%s)%n", tally.added,
                    tally.unchanged, tally.failed, tally.chunks, base.name(), base.id());
            return tally.failed == 0 ? Main.OK : Main.FAILED;
        }
    }

    /** What adding files has done so far, and the documents the base held before, by id. */
    private static final class Tally {
        final Set<String> before = new HashSet<>();
        final Set<String> failedBefore = new HashSet<>();
        final long started = System.nanoTime();
        int done;
        int added;
        int unchanged;
        int failed;
        long chunks;
        long embedded;

        Tally(List<KnowledgeDocument> kept) {
            for (KnowledgeDocument document : kept) {
                before.add(document.id());
                if (document.status() == DocumentStatus.ERROR) {
                    failedBefore.add(document.id());
                }
            }
        }
    }

    private static void addOne(KnowledgeModule knowledge, KnowledgeBase base, Path file, Tally tally,
            PrintStream err) {
        String name = file.getFileName().toString();
        int dot = name.lastIndexOf('.');
        KnowledgeDocument document;
        try {
            byte[] bytes = Files.readAllBytes(file);
            document = knowledge.addDocument.add(new AddDocumentCommand(base.id(), name,
                    new AddDocumentCommand.File(bytes, dot < 0 ? "" : name.substring(dot)
                            .toLowerCase(Locale.ROOT), Files.probeContentType(file)), null, null));
        } catch (IOException | KnowledgeException e) {
            err.println();
            err.println("hexaflow: " + file + ": " + e.getMessage());
            tally.failed++;
            tally.done++;
            return;
        }
        tally.done++;
        // Added again, one whose indexing had failed was indexed again: counted as this run's.
        if (tally.failedBefore.remove(document.id())) {
            tally.before.remove(document.id());
        }
        if (tally.before.contains(document.id())) {
            tally.unchanged++;
            return;
        }
        tally.before.add(document.id());
        int count = knowledge.documents.chunks(document.id()).size();
        tally.chunks += count;
        if (document.status() == DocumentStatus.ERROR) {
            err.println();
            err.println("hexaflow: " + file + ": kept, but not embedded: " + document.error().orElse("")
                    + " (added again, it is retried)");
            tally.failed++;
        } else {
            tally.added++;
            tally.embedded += base.keywordOnly() ? 0 : count;
        }
    }

    public static int list(Command.ListKnowledgeBases command, PrintStream out) {
        try (Storage storage = Storage.open(command.config());
                KnowledgeModule knowledge = module(storage, command.config())) {
            String row = "%-36s  %-9s  %-6s  %-17s  %s%n";
            out.printf(row, "ID", "DOCUMENTS", "CHUNKS", "SEARCH", "NAME");
            for (KnowledgeBase base : knowledge.bases.list()) {
                List<KnowledgeDocument> documents = knowledge.documents.documents(base.id());
                long chunks = documents.stream().mapToLong(d -> knowledge.documents.chunks(d.id()).size()).sum();
                out.printf(row, base.id(), documents.size(), chunks, base.retrieval().method().wireName(),
                        base.name());
            }
            return Main.OK;
        }
    }

    public static int createKey(Command.CreateDatasetKey command, PrintStream out) {
        try (Storage storage = Storage.open(command.config());
                KnowledgeModule knowledge = module(storage, command.config())) {
            out.println(knowledge.keys.issue());
            return Main.OK;
        }
    }

    public static int bind(Command.BindDatasetId command, PrintStream out, PrintStream err) {
        try (Storage storage = Storage.open(command.config());
                KnowledgeModule knowledge = module(storage, command.config())) {
            Optional<KnowledgeBase> base = find(knowledge, command.base());
            if (base.isEmpty()) {
                err.println("hexaflow: no knowledge base " + command.base() + " (its id or name; see knowledge list)");
                return Main.FAILED;
            }
            knowledge.bases.bind(command.datasetId(), base.get().id());
            out.println(command.datasetId() + " -> " + base.get().id() + "  (" + base.get().name() + ")");
            return Main.OK;
        } catch (KnowledgeException e) {
            err.println("hexaflow: " + e.getMessage());
            return Main.FAILED;
        }
    }

    public static int unbind(Command.UnbindDatasetId command, PrintStream out, PrintStream err) {
        try (Storage storage = Storage.open(command.config());
                KnowledgeModule knowledge = module(storage, command.config())) {
            knowledge.bases.unbind(command.datasetId());
            out.println("unbound " + command.datasetId());
            return Main.OK;
        } catch (KnowledgeException e) {
            err.println("hexaflow: " + e.getMessage());
            return Main.FAILED;
        }
    }

    /** The base with this id, or else the one base with this name. */
    private static Optional<KnowledgeBase> find(KnowledgeModule knowledge, String idOrName) {
        Optional<KnowledgeBase> byId = knowledge.bases.find(idOrName);
        if (byId.isPresent()) {
            return byId;
        }
        List<KnowledgeBase> named = knowledge.bases.list().stream().filter(b -> b.name().equals(idOrName)).toList();
        return named.size() == 1 ? Optional.of(named.get(0)) : Optional.empty();
    }

    private static KnowledgeModule module(Storage storage, Configuration config) {
        return new KnowledgeModule(storage.jdbi(), config.dataDir().resolve("knowledge"), config.engine(),
                Clock.systemUTC(), storage.instance(), StorageHealth.UNWATCHED,
                config.service().maxChunksPerDocument());
    }
}
