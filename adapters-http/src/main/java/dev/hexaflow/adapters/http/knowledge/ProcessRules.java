package dev.hexaflow.adapters.http.knowledge;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.domain.knowledge.SplittingRules;

/** A Dify {@code process_rule} body as splitting rules: automatic unless its mode is custom. */
public final class ProcessRules {

    private ProcessRules() {
    }

    /** @throws IllegalArgumentException for custom rules the splitter refuses, naming what is wrong */
    public static SplittingRules read(JsonNode rule) {
        if (!rule.isObject() || !"custom".equals(rule.path("mode").asText())) {
            return SplittingRules.AUTOMATIC;
        }
        JsonNode rules = rule.path("rules");
        JsonNode segmentation = rules.path("segmentation");
        boolean spaces = false;
        boolean urls = false;
        for (JsonNode pre : rules.path("pre_processing_rules")) {
            boolean on = pre.path("enabled").asBoolean(false);
            switch (pre.path("id").asText()) {
                case "remove_extra_spaces" -> spaces = on;
                case "remove_urls_emails" -> urls = on;
                default -> { }
            }
        }
        return SplittingRules.custom(segmentation.path("separator").asText("\n"),
                segmentation.path("max_tokens").asInt(500), segmentation.path("chunk_overlap").asInt(0), spaces, urls);
    }
}
