package dev.hexaflow.adapters.nodes.document;

/**
 * A document's text as it is produced: the append that would pass the character bound is refused, so no more is
 * built, and nothing past the bound is ever held.
 */
final class BoundedText {

    private final DocumentLimits limits;
    private final StringBuilder text = new StringBuilder();

    BoundedText(DocumentLimits limits) {
        this.limits = limits;
    }

    BoundedText append(CharSequence chars) {
        room(chars.length());
        text.append(chars);
        return this;
    }

    BoundedText append(char c) {
        room(1);
        text.append(c);
        return this;
    }

    BoundedText append(char[] chars, int start, int length) {
        room(length);
        text.append(chars, start, length);
        return this;
    }

    /** Writes {@code count} copies of {@code unit}, refused before any if they would not fit. */
    BoundedText repeat(String unit, int count) {
        room((long) unit.length() * count);
        for (int i = 0; i < count; i++) {
            text.append(unit);
        }
        return this;
    }

    private void room(long more) {
        if (text.length() + more > limits.maxChars()) {
            throw limits.textTooLong();
        }
    }

    @Override
    public String toString() {
        return text.toString();
    }
}
