package dev.hexaflow.adapters.persistence.lucene;

import dev.hexaflow.application.knowledge.port.out.StoredChunk;
import dev.hexaflow.domain.knowledge.Chunk;
import dev.hexaflow.domain.knowledge.TextMeasure;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.lucene.analysis.cjk.CJKAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;

/**
 * What indexing each chunk once per keyword analyzer costs against the one CJK field of before, in one JVM, the two
 * interleaved so that a loaded machine slows both alike (not part of the suite: surefire runs *Test classes):
 * {@code mvn -o -q test -pl adapters-persistence -am -Dtest=KeywordFieldsBench -Dsurefire.failIfNoSpecifiedTests=false}.
 */
class KeywordFieldsBench {

    private static final int CHUNKS = Integer.getInteger("knowledge.chunks", 5000);
    private static final int BATCH = 100;
    private static final String[] WORDS = ("visitor parking lot entrance staff employee travel expense claim receipt "
            + "meeting room booking calendar printer colour laptop password delivery dock camp summer lunch canteen "
            + "helpdesk equipment report fire drill remote worker connection renew training safety 停车 年假 报销 "
            + "午餐 密码 会議室 予約 駐車場").split(" ");

    @Test
    void fourFieldsAgainstOne() throws IOException {
        List<List<StoredChunk>> batches = batches();
        for (int round = 1; round <= 3; round++) {
            Path one = Files.createTempDirectory("one-field");
            long started = System.nanoTime();
            try (FSDirectory dir = FSDirectory.open(one);
                    IndexWriter writer = new IndexWriter(dir, new IndexWriterConfig(new CJKAnalyzer()))) {
                for (List<StoredChunk> batch : batches) {
                    for (StoredChunk chunk : batch) {
                        writer.addDocument(before(chunk));
                    }
                    writer.commit();
                }
            }
            long oneNanos = System.nanoTime() - started;
            Path four = Files.createTempDirectory("four-fields");
            started = System.nanoTime();
            try (LuceneKnowledgeIndex index = new LuceneKnowledgeIndex(four)) {
                batches.forEach(index::add);
            }
            long fourNanos = System.nanoTime() - started;
            System.out.printf("BENCH round %d, %d chunks: one CJK field %.0f chunks/s, %d bytes/chunk; four fields "
                    + "%.0f chunks/s, %d bytes/chunk%n", round, CHUNKS, CHUNKS / (oneNanos / 1e9),
                    size(one) / CHUNKS, CHUNKS / (fourNanos / 1e9), size(four) / CHUNKS);
            delete(one);
            delete(four);
        }
    }

    private static List<List<StoredChunk>> batches() {
        Random random = new Random(7);
        List<List<StoredChunk>> batches = new ArrayList<>();
        for (int b = 0; b < CHUNKS / BATCH; b++) {
            List<StoredChunk> batch = new ArrayList<>();
            for (int c = 0; c < BATCH; c++) {
                StringBuilder text = new StringBuilder();
                for (int w = 0; w < 50; w++) {
                    text.append(WORDS[random.nextInt(WORDS.length)]).append(w % 12 == 11 ? ". " : " ");
                }
                String id = "c" + b + "-" + c;
                String content = text.toString();
                batch.add(StoredChunk.of(new Chunk(id, "d" + b, "b1", c + 1, content, 50, 60, List.of(),
                        TextMeasure.hash(content), 0, true), null));
            }
            batches.add(batch);
        }
        return batches;
    }

    private static Document before(StoredChunk chunk) {
        Document doc = new Document();
        doc.add(new StringField("id", chunk.id(), Field.Store.YES));
        doc.add(new StringField("base", "b1", Field.Store.NO));
        doc.add(new StringField("document", chunk.chunk().documentId(), Field.Store.YES));
        doc.add(new TextField("content", chunk.chunk().content(), Field.Store.NO));
        return doc;
    }

    private static void delete(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.toList()) {
                Files.delete(file);
            }
        }
        Files.delete(dir);
    }

    private static long size(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.mapToLong(f -> f.toFile().length()).sum();
        }
    }
}
