package dev.hexaflow.domain.workflow;

import java.util.LinkedHashMap;
import java.util.Map;

/** What a model call (or a chat turn's calls together) used, and how long it took. */
public record ModelUsage(long promptTokens, long completionTokens, long totalTokens, double latency) {

    /** Dify's LLMUsage: prices are decimal strings, and 0, for Hexaflow keeps no price list. */
    public Map<String, Object> asDify() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("prompt_tokens", promptTokens);
        map.put("prompt_unit_price", "0");
        map.put("prompt_price_unit", "0");
        map.put("prompt_price", "0");
        map.put("completion_tokens", completionTokens);
        map.put("completion_unit_price", "0");
        map.put("completion_price_unit", "0");
        map.put("completion_price", "0");
        map.put("total_tokens", totalTokens);
        map.put("total_price", "0");
        map.put("currency", "USD");
        map.put("latency", Math.round(latency * 1000) / 1000.0);
        return map;
    }
}
