package dev.hexaflow.adapters.nodes.tool.convert;

import dev.hexaflow.workflow.port.out.ToolRunner.ToolException;

/**
 * What one call of a document-conversion tool may take and make: the characters of its text, the bytes of a file
 * it reads, the pages of a PDF it makes or renders, the rows of its tables, the bytes of what it answers. A call
 * past one fails with a sentence naming it.
 *
 * @param maxInputChars  the characters of a text parameter (md_text, a JSON text, a text to encode)
 * @param maxInputBytes  the bytes of a file parameter (a template, a workbook, a PDF)
 * @param maxPages       the pages of a PDF made, or rendered to images
 * @param maxRows        the rows of the tables of a Markdown text, or of a workbook read
 * @param maxOutputBytes the bytes of a file or text answered
 */
public record ConversionLimits(int maxInputChars, long maxInputBytes, int maxPages, int maxRows,
        long maxOutputBytes) {

    /**
     * 1,000,000 characters (a 300-page book), 20 MB files, 200 pages, 100,000 rows, 20 MB answered: well past a
     * report a model writes, well under the 50 MB a tool file may hold.
     */
    public static final ConversionLimits DEFAULTS = new ConversionLimits(1_000_000, 20L * 1024 * 1024, 200,
            100_000, 20L * 1024 * 1024);

    public ConversionLimits {
        if (maxInputChars < 1 || maxInputBytes < 1 || maxPages < 1 || maxRows < 1 || maxOutputBytes < 1) {
            throw new IllegalArgumentException("every conversion limit must be at least 1");
        }
    }

    /** A limit passed: the node fails, whatever the plugin answers of a failed conversion. */
    static final class Exceeded extends ToolException {
        Exceeded(String message) {
            super(message);
        }
    }

    String text(String name, String value) {
        if (value.length() > maxInputChars) {
            throw new Exceeded("The parameter " + name + " has " + value.length() + " characters, more than the "
                    + maxInputChars + " this tool reads");
        }
        return value;
    }

    byte[] file(String name, byte[] content) {
        if (content.length > maxInputBytes) {
            throw new Exceeded("The file " + name + " has " + content.length + " bytes, more than the "
                    + maxInputBytes + " this tool reads");
        }
        return content;
    }

    void rows(int rows) {
        if (rows > maxRows) {
            throw new Exceeded("The tables have more than " + maxRows + " rows, more than this tool converts");
        }
    }

    byte[] output(byte[] content) {
        outputSize(content.length);
        return content;
    }

    void outputSize(long size) {
        if (size > maxOutputBytes) {
            throw new Exceeded("The result has " + size + " bytes, more than the " + maxOutputBytes
                    + " this tool answers");
        }
    }
}
