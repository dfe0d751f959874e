package dev.hexaflow.adapters.http.serviceapi.datasets;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.domain.knowledge.ParentChildRules;
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

    /**
     * Dify's hierarchical {@code process_rule}: {@code mode: hierarchical}, {@code rules.parent_mode}
     * ({@code paragraph} or {@code full-doc}), {@code rules.segmentation} for paragraph parents and
     * {@code rules.subchunk_segmentation} for the children, each with separator, max_tokens and chunk_overlap.
     *
     * @throws IllegalArgumentException naming what is missing or wrong
     */
    public static ParentChildRules hierarchy(JsonNode rule) {
        if (!rule.isObject() || !"hierarchical".equals(rule.path("mode").asText())) {
            throw new IllegalArgumentException("A hierarchical_model document needs a process_rule whose mode is "
                    + "hierarchical.");
        }
        JsonNode rules = rule.path("rules");
        if (!rules.isObject()) {
            throw new IllegalArgumentException("Process rule rules is required");
        }
        ParentChildRules.ParentMode mode = ParentChildRules.ParentMode.fromWireName(rules.path("parent_mode")
                .asText("paragraph")).orElseThrow(() -> new IllegalArgumentException(
                        "Process rule parent_mode must be paragraph or full-doc"));
        JsonNode sub = rules.path("subchunk_segmentation");
        if (!sub.isObject()) {
            throw new IllegalArgumentException("Process rule subchunk_segmentation is required");
        }
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
        JsonNode segmentation = rules.path("segmentation");
        SplittingRules parent = SplittingRules.custom(segmentation.path("separator").asText("\n\n"),
                segmentation.path("max_tokens").asInt(500), segmentation.path("chunk_overlap").asInt(0), spaces,
                urls);
        SplittingRules child = SplittingRules.custom(sub.path("separator").asText("\n"),
                sub.path("max_tokens").asInt(200), sub.path("chunk_overlap").asInt(0), spaces, urls);
        return new ParentChildRules(mode, parent, child);
    }
}
