package dev.hexaflow.adapters.persistence.lucene;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.adapters.persistence.memory.InMemoryKnowledgeRepository;
import dev.hexaflow.application.common.StorageUnavailableException;
import dev.hexaflow.application.knowledge.port.out.KnowledgeIndex.Hit;
import dev.hexaflow.application.knowledge.port.out.StoredChunk;
import dev.hexaflow.domain.knowledge.Chunk;
import dev.hexaflow.domain.knowledge.DocumentStatus;
import dev.hexaflow.domain.knowledge.KeywordAnalyzer;
import dev.hexaflow.domain.knowledge.KnowledgeBase;
import dev.hexaflow.domain.knowledge.KnowledgeDocument;
import dev.hexaflow.domain.knowledge.RetrievalSettings;
import dev.hexaflow.domain.knowledge.SearchMethod;
import dev.hexaflow.domain.knowledge.TextMeasure;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.lucene.analysis.cjk.CJKAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One document of the index rebuilt from the repository, as an instance does when another changed it: the
 * document is found as the repository holds it now, and every other document stays as it was. An index on disk
 * whose directory cannot be written refuses the change as storage that cannot keep it. An index written before the
 * analyzers' fields is stale until rebuilt. An index on disk is opened by its first use, not when it is made.
 */
class LuceneKnowledgeIndexTest {

    private final InMemoryKnowledgeRepository repository = new InMemoryKnowledgeRepository();
    private final LuceneKnowledgeIndex index = LuceneKnowledgeIndex.inMemory();

    @AfterEach
    void close() {
        index.close();
    }

    @Test
    void anIndexOnDiskIsOpenedByItsFirstUse(@TempDir Path folder) throws IOException {
        Path path = folder.resolve("knowledge");
        try (LuceneKnowledgeIndex onDisk = new LuceneKnowledgeIndex(path)) {
            assertThat(path).as("nothing opened or made yet").doesNotExist();

            assertThat(onDisk.isStale(0)).as("no chunks kept, no index on disk").isFalse();
            assertThat(path).as("a start without knowledge opens no index").doesNotExist();

            assertThat(onDisk.isStale(1)).as("chunks kept, no index on disk").isTrue();

            assertThat(path).isDirectory();
            try (var files = Files.list(path)) {
                assertThat(files.map(file -> file.getFileName().toString())).anyMatch(name -> name.startsWith(
                        "segments_"));
            }
        }
        try (LuceneKnowledgeIndex again = new LuceneKnowledgeIndex(path)) {
            assertThat(again.isStale(0)).as("an empty index on disk, opened to count it").isFalse();
            assertThat(again.isStale(1)).isTrue();
        }
        Path notAFolder = Files.writeString(folder.resolve("a-file"), "x");
        LuceneKnowledgeIndex unusable = new LuceneKnowledgeIndex(notAFolder);
        assertThatThrownBy(() -> unusable.isStale(0)).as("an index that cannot be opened says so at its first use")
                .hasMessageContaining("the knowledge index at " + notAFolder + " cannot be opened");
        unusable.close();

        Path never = folder.resolve("never-used");
        LuceneKnowledgeIndex closedUnused = new LuceneKnowledgeIndex(never);
        closedUnused.close();
        assertThatThrownBy(() -> closedUnused.isStale(0)).as("closed before its first use, it stays closed")
                .isInstanceOf(org.apache.lucene.store.AlreadyClosedException.class);
        assertThat(never).doesNotExist();
    }

    @Test
    void aDocumentRebuiltHoldsWhatTheRepositoryHoldsOfItAndTheOthersStay() {
        repository.saveBase(new KnowledgeBase("b1", "Base", "", Optional.empty(),
                new RetrievalSettings(SearchMethod.KEYWORD_SEARCH, 5, Optional.empty(), 0.5, 0.5), Instant.EPOCH));
        repository.saveDocument(document("d1"));
        repository.saveDocument(document("d2"));
        repository.replaceChunks("d1", List.of(chunk("c1", "d1", "paid leave is 25 days"),
                chunk("c2", "d1", "sick leave is unlimited")));
        repository.replaceChunks("d2", List.of(chunk("c3", "d2", "parental leave is 16 weeks")));
        index.rebuild(repository);
        assertThat(found("leave")).containsExactlyInAnyOrder("c1", "c2", "c3");

        // Another instance replaced d1's chunks: the store has them, this index does not yet.
        repository.replaceChunks("d1", List.of(chunk("c4", "d1", "annual leave is 30 days")));
        assertThat(found("annual")).isEmpty();

        index.rebuildDocument("d1", repository);

        assertThat(found("leave")).containsExactlyInAnyOrder("c3", "c4");
        assertThat(found("annual")).containsExactly("c4");
        assertThat(index.count()).isEqualTo(2);

        repository.deleteDocument("d2");
        index.rebuildDocument("d2", repository);
        assertThat(found("leave")).as("a document gone from the store is gone from the index").containsExactly("c4");
        assertThat(index.isStale(repository.countSearchableChunks())).isFalse();
    }

    @Test
    void aChangeTheDirectoryCannotTakeIsRefusedAsStorageWithTheFileSystemsWordsAndTheNextOneIsTakenOnceItCan(
            @TempDir Path dir) throws IOException {
        Path path = dir.resolve("knowledge");
        try (LuceneKnowledgeIndex onDisk = new LuceneKnowledgeIndex(path)) {
            onDisk.add(List.of(chunk("c1", "d1", "paid leave is 25 days")));
            // A file where the index's directory was: nothing can be created in it, whoever the process runs as.
            Files.move(path, dir.resolve("aside"));
            Files.writeString(path, "not a directory");

            assertThatThrownBy(() -> onDisk.add(List.of(chunk("c2", "d1", "sick leave is unlimited"))))
                    .isInstanceOfSatisfying(StorageUnavailableException.class, e -> assertThat(e.kind())
                            .isEqualTo(StorageUnavailableException.Kind.WRITES_FAILING))
                    .hasMessageContaining("knowledge index").hasMessageContaining("Not a directory")
                    .hasMessageNotContaining(dir.toString());
            assertThat(onDisk.byWords("b1", KeywordAnalyzer.AUTO, "leave", null, 10))
                    .as("searches go on over what was committed").extracting(Hit::chunkId).containsExactly("c1");

            Files.delete(path);
            Files.move(dir.resolve("aside"), path);
            onDisk.add(List.of(chunk("c3", "d1", "parental leave is 16 weeks")));

            assertThat(onDisk.byWords("b1", KeywordAnalyzer.AUTO, "leave", null, 10)).extracting(Hit::chunkId)
                    .containsExactlyInAnyOrder("c1", "c3");
        }
    }

    @Test
    void anIndexWrittenBeforeTheAnalyzersFieldsIsStaleUntilItIsRebuiltAndThenFindsWordForms(@TempDir Path dir)
            throws IOException {
        Path path = dir.resolve("knowledge");
        // The index as Hexaflow wrote it before: one CJK-analysed field, the same number of chunks as the store.
        try (FSDirectory old = FSDirectory.open(path);
                IndexWriter writer = new IndexWriter(old, new IndexWriterConfig(new CJKAnalyzer()))) {
            Document doc = new Document();
            doc.add(new StringField("id", "c1", Field.Store.YES));
            doc.add(new StringField("base", "b1", Field.Store.NO));
            doc.add(new StringField("document", "d1", Field.Store.YES));
            doc.add(new TextField("content", "Visitor parking is in Lot X", Field.Store.NO));
            writer.addDocument(doc);
            writer.commit();
        }
        repository.saveDocument(document("d1"));
        repository.replaceChunks("d1", List.of(chunk("c1", "d1", "Visitor parking is in Lot X")));

        try (LuceneKnowledgeIndex upgraded = new LuceneKnowledgeIndex(path)) {
            assertThat(upgraded.count()).isEqualTo(repository.countSearchableChunks());
            assertThat(upgraded.isStale(repository.countSearchableChunks())).as("same count, old fields").isTrue();
            upgraded.add(List.of(chunk("c1", "d1", "Visitor parking is in Lot X")));
            assertThat(upgraded.isStale(1)).as("a change before the rebuild does not make it current").isTrue();
            upgraded.rebuild(repository);
            assertThat(upgraded.isStale(1)).isFalse();
            assertThat(upgraded.byWords("b1", KeywordAnalyzer.AUTO, "where do visitors park", null, 10))
                    .extracting(Hit::chunkId).containsExactly("c1");
        }
        try (LuceneKnowledgeIndex reopened = new LuceneKnowledgeIndex(path)) {
            assertThat(reopened.isStale(1)).as("the rebuilt index's commits name its fields").isFalse();
        }
    }

    @Test
    void everyFileTheIndexWritesAfterItOpensIsItsOwnersOnly(@TempDir Path dir) throws IOException {
        Path path = dir.resolve("knowledge");
        try (LuceneKnowledgeIndex onDisk = new LuceneKnowledgeIndex(path)) {
            onDisk.add(List.of(chunk("c1", "d1", "paid leave is 25 days")));
            onDisk.add(List.of(chunk("c2", "d1", "sick leave is unlimited")));

            java.util.Map<String, String> modes = new java.util.TreeMap<>();
            try (var files = Files.walk(path)) {
                files.forEach(file -> modes.put(path.relativize(file).toString(), mode(file)));
            }
            assertThat(modes).containsEntry("", "rwx------").hasSizeGreaterThan(3);
            assertThat(modes).as("each file Lucene made after the folder was narrowed")
                    .allSatisfy((name, mode) -> assertThat(mode).isIn("rwx------", "rw-------"));
            assertThat(modes.keySet()).anyMatch(name -> name.startsWith("segments_"));
        }
    }

    private static String mode(Path file) {
        try {
            return java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(file));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private List<String> found(String words) {
        return index.byWords("b1", KeywordAnalyzer.AUTO, words, null, 10).stream().map(Hit::chunkId).toList();
    }

    private static KnowledgeDocument document(String id) {
        return new KnowledgeDocument(id, "b1", id + ".md", "text", 5, "hash-" + id, DocumentStatus.COMPLETED,
                Optional.empty(), true, Map.of(), Instant.EPOCH);
    }

    private static StoredChunk chunk(String id, String documentId, String text) {
        return StoredChunk.of(new Chunk(id, documentId, "b1", 1, text, text.length(), 5, List.of(),
                TextMeasure.hash(text), 0, true), null);
    }
}
