package dev.hexaflow.adapters.nodes.tool.convert;

import dev.hexaflow.domain.tool.ToolMessage;
import java.net.URLConnection;
import java.util.Arrays;
import java.util.Locale;

/** A decoded file's type, from its first bytes as the {@code filetype} package reads them, else from its name. */
final class FileTypes {

    private FileTypes() {
    }

    /** The file as a blob, its name given the extension of the type its bytes show. */
    static ToolMessage.Blob blob(byte[] bytes, String name) {
        String[] sniffed = sniff(bytes);
        if (sniffed != null) {
            String named = name != null && !name.endsWith("." + sniffed[1]) ? name + "." + sniffed[1] : name;
            return new ToolMessage.Blob(bytes, sniffed[0], named);
        }
        String guessed = name == null ? null : URLConnection.guessContentTypeFromName(name.toLowerCase(Locale.ROOT));
        return new ToolMessage.Blob(bytes, guessed == null ? "application/octet-stream" : guessed, name);
    }

    /** {mime type, extension} of the magic numbers a workflow's files most often carry, or null. */
    private static String[] sniff(byte[] bytes) {
        if (starts(bytes, 0x89, 'P', 'N', 'G')) {
            return new String[] {"image/png", "png"};
        }
        if (starts(bytes, 0xff, 0xd8, 0xff)) {
            return new String[] {"image/jpeg", "jpg"};
        }
        if (starts(bytes, 'G', 'I', 'F', '8')) {
            return new String[] {"image/gif", "gif"};
        }
        if (starts(bytes, 'R', 'I', 'F', 'F') && bytes.length >= 12
                && Arrays.equals(Arrays.copyOfRange(bytes, 8, 12), "WEBP".getBytes())) {
            return new String[] {"image/webp", "webp"};
        }
        if (starts(bytes, '%', 'P', 'D', 'F')) {
            return new String[] {"application/pdf", "pdf"};
        }
        if (starts(bytes, 'P', 'K', 3, 4)) {
            return new String[] {"application/zip", "zip"};
        }
        return null;
    }

    private static boolean starts(byte[] bytes, int... magic) {
        if (bytes.length < magic.length) {
            return false;
        }
        for (int i = 0; i < magic.length; i++) {
            if ((bytes[i] & 0xff) != magic[i]) {
                return false;
            }
        }
        return true;
    }
}
