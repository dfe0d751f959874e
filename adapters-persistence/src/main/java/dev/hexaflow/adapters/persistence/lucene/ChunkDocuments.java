package dev.hexaflow.adapters.persistence.lucene;

import dev.hexaflow.application.knowledge.port.out.StoredChunk;
import dev.hexaflow.domain.knowledge.KeywordAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.VectorSimilarityFunction;

/**
 * A chunk as the index's document: its id, base and document as terms, its text once per keyword analyzer, and its
 * vector (unless it has none, or one of zeros) in the field of its dimensions.
 */
final class ChunkDocuments {

    private ChunkDocuments() {
    }

    static Document of(StoredChunk stored) {
        Document doc = new Document();
        doc.add(new StringField(LuceneKnowledgeIndex.ID, stored.id(), Field.Store.YES));
        doc.add(new StringField(LuceneKnowledgeIndex.BASE, stored.chunk().baseId(), Field.Store.NO));
        doc.add(new StringField(LuceneKnowledgeIndex.DOCUMENT, stored.chunk().documentId(), Field.Store.YES));
        for (KeywordAnalyzer analysis : KeywordAnalyzer.values()) {
            doc.add(new TextField(LuceneAnalyzers.field(analysis), stored.chunk().content(), Field.Store.NO));
        }
        stored.vector().filter(v -> !isZero(v)).ifPresent(v -> doc.add(new KnnFloatVectorField(vectorField(v.length),
                v, VectorSimilarityFunction.COSINE)));
        return doc;
    }

    static String vectorField(int dimensions) {
        return "vector_" + dimensions;
    }

    static boolean isZero(float[] vector) {
        for (float x : vector) {
            if (x != 0) {
                return false;
            }
        }
        return true;
    }
}
