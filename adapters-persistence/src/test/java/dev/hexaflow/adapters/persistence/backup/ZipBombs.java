package dev.hexaflow.adapters.persistence.backup;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

/**
 * Zips written by hand, so that a test can hold an entry of gigabytes of zeros without deflating them: one megabyte
 * of zeros deflated once, with the dictionary reset after it, deflates to the same kilobyte every time, so the entry's
 * data is that kilobyte repeated. The zip's own headers carry the true sizes and CRC; only the bytes are never made.
 */
public final class ZipBombs {

    private static final int MEGABYTE = 1 << 20;

    private ZipBombs() {
    }

    /** An entry's name with either its bytes or a count of megabytes of zeros. */
    public record Entry(String name, byte[] bytes, int zeroMegabytes) {
        public static Entry of(String name, byte[] bytes) {
            return new Entry(name, bytes, 0);
        }

        public static Entry zeros(String name, int megabytes) {
            return new Entry(name, null, megabytes);
        }

        long size() {
            return bytes != null ? bytes.length : (long) zeroMegabytes * MEGABYTE;
        }
    }

    /** Writes a zip of {@code entries} in their order, each deflated. */
    public static void write(Path file, Entry... entries) throws IOException {
        ByteArrayOutputStream central = new ByteArrayOutputStream();
        try (OutputStream out = Files.newOutputStream(file)) {
            long offset = 0;
            for (Entry entry : entries) {
                byte[] data = entry.bytes != null ? deflate(entry.bytes) : deflatedZeros(entry.zeroMegabytes);
                long crc = entry.bytes != null ? crc(entry.bytes) : crcOfZeros(entry.zeroMegabytes);
                byte[] name = entry.name.getBytes(StandardCharsets.UTF_8);
                ByteBuffer local = header(30, name).putInt(0x04034b50).putShort((short) 20).putShort((short) 0)
                        .putShort((short) 8).putShort((short) 0).putShort((short) 0x21).putInt((int) crc)
                        .putInt(data.length).putInt((int) entry.size()).putShort((short) name.length)
                        .putShort((short) 0).put(name);
                out.write(local.array());
                out.write(data);
                ByteBuffer listed = header(46, name).putInt(0x02014b50).putShort((short) 20).putShort((short) 20)
                        .putShort((short) 0).putShort((short) 8).putShort((short) 0).putShort((short) 0x21)
                        .putInt((int) crc).putInt(data.length).putInt((int) entry.size())
                        .putShort((short) name.length).putShort((short) 0).putShort((short) 0).putShort((short) 0)
                        .putShort((short) 0).putInt(0).putInt((int) offset).put(name);
                central.write(listed.array());
                offset += local.capacity() + data.length;
            }
            out.write(central.toByteArray());
            ByteBuffer end = ByteBuffer.allocate(22).order(ByteOrder.LITTLE_ENDIAN).putInt(0x06054b50)
                    .putShort((short) 0).putShort((short) 0).putShort((short) entries.length)
                    .putShort((short) entries.length).putInt(central.size()).putInt((int) offset).putShort((short) 0);
            out.write(end.array());
        }
    }

    /** A zip of the entries in the map's order. */
    public static void write(Path file, Map<String, byte[]> entries) throws IOException {
        write(file, new LinkedHashMap<>(entries).entrySet().stream().map(e -> Entry.of(e.getKey(), e.getValue()))
                .toArray(Entry[]::new));
    }

    private static ByteBuffer header(int size, byte[] name) {
        return ByteBuffer.allocate(size + name.length).order(ByteOrder.LITTLE_ENDIAN);
    }

    private static byte[] deflate(byte[] bytes) {
        Deflater deflater = new Deflater(Deflater.BEST_COMPRESSION, true);
        deflater.setInput(bytes);
        deflater.finish();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buffer = new byte[64 << 10];
        while (!deflater.finished()) {
            out.write(buffer, 0, deflater.deflate(buffer));
        }
        deflater.end();
        return out.toByteArray();
    }

    private static byte[] deflatedZeros(int megabytes) {
        Deflater deflater = new Deflater(Deflater.BEST_COMPRESSION, true);
        deflater.setInput(new byte[MEGABYTE]);
        ByteArrayOutputStream block = new ByteArrayOutputStream();
        byte[] buffer = new byte[64 << 10];
        int n;
        do {
            n = deflater.deflate(buffer, 0, buffer.length, Deflater.FULL_FLUSH);
            block.write(buffer, 0, n);
        } while (n == buffer.length || !deflater.needsInput());
        deflater.end();
        byte[] repeated = block.toByteArray();
        byte[] last = deflate(new byte[0]);
        ByteArrayOutputStream out = new ByteArrayOutputStream(repeated.length * megabytes + last.length);
        for (int i = 0; i < megabytes; i++) {
            out.write(repeated, 0, repeated.length);
        }
        out.write(last, 0, last.length);
        return out.toByteArray();
    }

    private static long crc(byte[] bytes) {
        CRC32 crc = new CRC32();
        crc.update(bytes);
        return crc.getValue();
    }

    private static long crcOfZeros(int megabytes) {
        CRC32 crc = new CRC32();
        byte[] zeros = new byte[MEGABYTE];
        for (int i = 0; i < megabytes; i++) {
            crc.update(zeros);
        }
        return crc.getValue();
    }
}
