package dev.hexaflow.adapters.nodes.document;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/** Compressed bytes as an inflater reads them: what a part really takes in the file, whatever its header says. */
final class CountingInput extends FilterInputStream {

    private long count;

    CountingInput(InputStream in) {
        super(in);
    }

    long count() {
        return count;
    }

    @Override
    public int read() throws IOException {
        int b = super.read();
        if (b >= 0) {
            count++;
        }
        return b;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        int n = super.read(buffer, offset, length);
        if (n > 0) {
            count += n;
        }
        return n;
    }

    @Override
    public long skip(long n) throws IOException {
        long skipped = super.skip(n);
        count += Math.max(0, skipped);
        return skipped;
    }
}
