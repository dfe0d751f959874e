package dev.hexaflow.domain.limit;

/**
 * What the model charges, per million input (prompt) and output (completion) tokens, in the currency the price
 * budgets are set in; {@link #NONE} when no price is configured, and price budgets then count nothing.
 */
public record TokenPrice(double inputPerMillion, double outputPerMillion) {

    public static final TokenPrice NONE = new TokenPrice(0, 0);

    public TokenPrice {
        if (!(inputPerMillion >= 0) || !(outputPerMillion >= 0) || Double.isInfinite(inputPerMillion)
                || Double.isInfinite(outputPerMillion)) {
            throw new IllegalArgumentException("a price per million tokens is 0 or more");
        }
    }

    public boolean configured() {
        return inputPerMillion > 0 || outputPerMillion > 0;
    }

    /** The price of a call's tokens, in millionths: a price per million tokens is one in millionths per token. */
    public long micros(long inputTokens, long outputTokens) {
        return Math.round(inputTokens * inputPerMillion + outputTokens * outputPerMillion);
    }
}
