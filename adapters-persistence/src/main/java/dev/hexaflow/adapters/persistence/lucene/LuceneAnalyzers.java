package dev.hexaflow.adapters.persistence.lucene;

import dev.hexaflow.domain.knowledge.KeywordAnalyzer;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.LowerCaseFilter;
import org.apache.lucene.analysis.StopFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.Tokenizer;
import org.apache.lucene.analysis.cjk.CJKAnalyzer;
import org.apache.lucene.analysis.cjk.CJKBigramFilter;
import org.apache.lucene.analysis.cjk.CJKWidthFilter;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.en.EnglishPossessiveFilter;
import org.apache.lucene.analysis.en.PorterStemFilter;
import org.apache.lucene.analysis.miscellaneous.PerFieldAnalyzerWrapper;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.analysis.standard.StandardTokenizer;

/**
 * The analysis of each {@link KeywordAnalyzer}, one field of the index each: a chunk's text is indexed in all of
 * them, and a base's search reads the field of its analyzer, so changing a base's analyzer re-indexes nothing.
 */
final class LuceneAnalyzers {

    private static final Map<KeywordAnalyzer, String> FIELDS = new EnumMap<>(KeywordAnalyzer.class);

    static {
        for (KeywordAnalyzer analyzer : KeywordAnalyzer.values()) {
            FIELDS.put(analyzer, "content_" + analyzer.wireName());
        }
    }

    private LuceneAnalyzers() {
    }

    /** The field the text is indexed in for {@code analyzer}. */
    static String field(KeywordAnalyzer analyzer) {
        return FIELDS.get(analyzer);
    }

    /** Every field's analyzer, by field name: the index writer's, and the one a query is analysed with. */
    static Analyzer perField() {
        Map<String, Analyzer> byField = new HashMap<>();
        byField.put(field(KeywordAnalyzer.AUTO), new ByScript());
        byField.put(field(KeywordAnalyzer.ENGLISH), new EnglishAnalyzer());
        byField.put(field(KeywordAnalyzer.CJK), new CJKAnalyzer());
        byField.put(field(KeywordAnalyzer.STANDARD), new StandardAnalyzer());
        return new PerFieldAnalyzerWrapper(new StandardAnalyzer(), byField);
    }

    /**
     * English and CJK analysis in one pass, each word by its script: the standard tokenizer marks Han, Hiragana,
     * Katakana and Hangul runs, which become overlapping pairs of characters as in {@link CJKAnalyzer}; every other
     * word is analysed as {@link EnglishAnalyzer} does (possessive out, lower case, stop words out, Porter stem).
     * The Porter stemmer only strips Latin endings, so a pair of CJK characters passes it unchanged. A text that
     * mixes the two (an English manual quoting Chinese names) keeps both, which a guess per chunk would not.
     */
    static final class ByScript extends Analyzer {

        @Override
        protected TokenStreamComponents createComponents(String fieldName) {
            Tokenizer source = new StandardTokenizer();
            TokenStream result = new CJKWidthFilter(source);
            result = new EnglishPossessiveFilter(result);
            result = new LowerCaseFilter(result);
            result = new CJKBigramFilter(result);
            result = new StopFilter(result, EnglishAnalyzer.ENGLISH_STOP_WORDS_SET);
            return new TokenStreamComponents(source, new PorterStemFilter(result));
        }

        @Override
        protected TokenStream normalize(String fieldName, TokenStream in) {
            return new LowerCaseFilter(new CJKWidthFilter(in));
        }
    }
}
