package dev.hexaflow.engine;

import dev.hexaflow.adapters.nodes.document.DocumentLimits;
import dev.hexaflow.adapters.nodes.tool.JdkSqlToolRunner;
import dev.hexaflow.workflow.engine.EngineSettings;
import dev.hexaflow.domain.net.InvalidOutboundRuleException;
import dev.hexaflow.domain.net.OutboundPolicy;
import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * How the workflow engine is set up, from HEXAFLOW_* variables: the model endpoint and its key, model names
 * mapped per provider, the python executable, the limits of runs, code and template renders, and the speech model
 * (the same endpoint's /audio/speech), and the outbound policy: which addresses a workflow's requests may reach
 * (HEXAFLOW_OUTBOUND_ALLOW and HEXAFLOW_OUTBOUND_DENY, comma-separated addresses, CIDR ranges or host names), and
 * how long a tool served elsewhere (over MCP) may take to answer (HEXAFLOW_TOOL_TIMEOUT_SECONDS), and the embedding
 * model of knowledge bases (HEXAFLOW_EMBEDDING_MODEL, the same endpoint's /embeddings; unset, bases are keyword-only)
 * and their rerank model (HEXAFLOW_RERANK_MODEL, the same endpoint's /rerank; unset, a search asking for reranking
 * keeps its own scores), and what one document may make the document extractor produce, for the node and for
 * knowledge bases alike (HEXAFLOW_DOCUMENT_MAX_CHARS, HEXAFLOW_DOCUMENT_MAX_PAGES and
 * HEXAFLOW_DOCUMENT_MAX_INFLATED_MB), and which models take an LLM node's structured output schema as their
 * {@code response_format} (HEXAFLOW_LLM_JSON_SCHEMA; the others get it in their prompt), the model of the dalle
 * tools (HEXAFLOW_IMAGE_MODEL, the same endpoint's /images/generations) and the database of the SQL tools
 * (HEXAFLOW_SQL_URL, HEXAFLOW_SQL_USER, HEXAFLOW_SQL_PASSWORD, HEXAFLOW_SQL_WRITES, HEXAFLOW_SQL_MAX_ROWS,
 * HEXAFLOW_SQL_TIMEOUT_SECONDS).
 *
 * @param models {@code provider=model} or {@code provider/name=model} pairs, {@code *} for every provider
 * @param jsonSchemaModels {@code provider/name}, {@code provider} or {@code *}: the models that take a JSON schema
 */
public record EngineConfiguration(Optional<URI> llmBaseUrl, Optional<String> llmApiKey, Map<String, String> models,
        String python, int maxSteps, Duration maxRunTime, Duration codeTimeout, String ttsModel,
        OutboundPolicy outbound, int maxTemplateLoops, Duration toolTimeout, Optional<String> embeddingModel,
        Optional<String> rerankModel, DocumentLimits documents, Set<String> jsonSchemaModels,
        Optional<String> imageModel, Optional<JdkSqlToolRunner.Database> sqlDatabase) {

    public EngineConfiguration {
        jsonSchemaModels = jsonSchemaModels == null ? Set.of() : Set.copyOf(jsonSchemaModels);
        imageModel = imageModel == null ? Optional.empty() : imageModel.filter(m -> !m.isBlank());
        sqlDatabase = sqlDatabase == null ? Optional.empty() : sqlDatabase;
        documents = documents == null ? DocumentLimits.DEFAULTS : documents;
        models = Map.copyOf(models);
        outbound = outbound == null ? OutboundPolicy.DEFAULT : outbound;
        embeddingModel = embeddingModel == null ? Optional.empty() : embeddingModel.filter(m -> !m.isBlank());
        rerankModel = rerankModel == null ? Optional.empty() : rerankModel.filter(m -> !m.isBlank());
        if (maxSteps < 1) {
            throw new InvalidEngineConfigurationException("HEXAFLOW_MAX_STEPS must be at least 1");
        }
    }

    public static EngineConfiguration fromEnvironment(Map<String, String> env) {
        Optional<URI> base = Optional.ofNullable(env.get("HEXAFLOW_LLM_BASE_URL")).filter(s -> !s.isBlank())
                .map(EngineConfiguration::uri);
        return new EngineConfiguration(base,
                Optional.ofNullable(env.get("HEXAFLOW_LLM_API_KEY")).filter(s -> !s.isBlank()),
                models(env.getOrDefault("HEXAFLOW_LLM_MODELS", "")),
                env.getOrDefault("HEXAFLOW_PYTHON", "python3"),
                number(env, "HEXAFLOW_MAX_STEPS", 500),
                Duration.ofSeconds(number(env, "HEXAFLOW_MAX_RUN_SECONDS", 1200)),
                Duration.ofSeconds(number(env, "HEXAFLOW_CODE_TIMEOUT_SECONDS", 15)),
                env.getOrDefault("HEXAFLOW_TTS_MODEL", "tts-1"),
                outbound(env.getOrDefault("HEXAFLOW_OUTBOUND_ALLOW", ""),
                        env.getOrDefault("HEXAFLOW_OUTBOUND_DENY", "")),
                number(env, "HEXAFLOW_TEMPLATE_MAX_LOOPS", EngineSettings.DEFAULTS.maxTemplateLoops()),
                Duration.ofSeconds(number(env, "HEXAFLOW_TOOL_TIMEOUT_SECONDS", 30)),
                Optional.ofNullable(env.get("HEXAFLOW_EMBEDDING_MODEL")).map(String::strip),
                Optional.ofNullable(env.get("HEXAFLOW_RERANK_MODEL")).map(String::strip),
                new DocumentLimits(
                        number(env, "HEXAFLOW_DOCUMENT_MAX_CHARS", DocumentLimits.DEFAULTS.maxChars()),
                        number(env, "HEXAFLOW_DOCUMENT_MAX_PAGES", DocumentLimits.DEFAULTS.maxPages()),
                        number(env, "HEXAFLOW_DOCUMENT_MAX_INFLATED_MB", DocumentLimits.DEFAULTS.maxInflatedMb())),
                names(env.getOrDefault("HEXAFLOW_LLM_JSON_SCHEMA", "")),
                Optional.ofNullable(env.get("HEXAFLOW_IMAGE_MODEL")).map(String::strip),
                sqlDatabase(env));
    }

    /** The database the SQL tools query (HEXAFLOW_SQL_URL and its login, writes, row limit and time limit). */
    private static Optional<JdkSqlToolRunner.Database> sqlDatabase(Map<String, String> env) {
        String url = env.getOrDefault("HEXAFLOW_SQL_URL", "").strip();
        if (url.isEmpty()) {
            return Optional.empty();
        }
        if (!url.startsWith("jdbc:h2:") && !url.startsWith("jdbc:postgresql:")) {
            throw new InvalidEngineConfigurationException("HEXAFLOW_SQL_URL must be a jdbc:postgresql: or jdbc:h2:"
                    + " URL (the drivers the server has)");
        }
        String writes = env.getOrDefault("HEXAFLOW_SQL_WRITES", "false").strip();
        if (!writes.equals("true") && !writes.equals("false")) {
            throw new InvalidEngineConfigurationException("HEXAFLOW_SQL_WRITES must be true or false, was '"
                    + writes + "'");
        }
        return Optional.of(new JdkSqlToolRunner.Database(url, env.get("HEXAFLOW_SQL_USER"),
                env.get("HEXAFLOW_SQL_PASSWORD"), writes.equals("true"), number(env, "HEXAFLOW_SQL_MAX_ROWS", 1000),
                Duration.ofSeconds(number(env, "HEXAFLOW_SQL_TIMEOUT_SECONDS", 30))));
    }

    public EngineConfiguration withLlm(URI baseUrl, String apiKey) {
        return new EngineConfiguration(Optional.of(baseUrl), Optional.ofNullable(apiKey), models, python, maxSteps,
                maxRunTime, codeTimeout, ttsModel, outbound, maxTemplateLoops, toolTimeout, embeddingModel, rerankModel,
                documents, jsonSchemaModels, imageModel, sqlDatabase);
    }

    /** The same, with knowledge bases embedded by this model at the model endpoint's /embeddings. */
    public EngineConfiguration withEmbeddingModel(String model) {
        return new EngineConfiguration(llmBaseUrl, llmApiKey, models, python, maxSteps, maxRunTime, codeTimeout,
                ttsModel, outbound, maxTemplateLoops, toolTimeout, Optional.ofNullable(model), rerankModel,
                documents, jsonSchemaModels, imageModel, sqlDatabase);
    }

    /** The same, with knowledge searches that ask for it reranked by this model at the model endpoint's /rerank. */
    public EngineConfiguration withRerankModel(String model) {
        return new EngineConfiguration(llmBaseUrl, llmApiKey, models, python, maxSteps, maxRunTime, codeTimeout,
                ttsModel, outbound, maxTemplateLoops, toolTimeout, embeddingModel, Optional.ofNullable(model),
                documents, jsonSchemaModels, imageModel, sqlDatabase);
    }

    /** The same, with these models taking a structured output's schema as their response format. */
    public EngineConfiguration withJsonSchemaModels(Set<String> names) {
        return new EngineConfiguration(llmBaseUrl, llmApiKey, models, python, maxSteps, maxRunTime, codeTimeout,
                ttsModel, outbound, maxTemplateLoops, toolTimeout, embeddingModel, rerankModel, documents, names, imageModel, sqlDatabase);
    }

    private static OutboundPolicy outbound(String allow, String deny) {
        try {
            OutboundPolicy.of(allow, "");
        } catch (InvalidOutboundRuleException e) {
            throw new InvalidEngineConfigurationException("HEXAFLOW_OUTBOUND_ALLOW: " + e.getMessage());
        }
        try {
            return OutboundPolicy.of(allow, deny);
        } catch (InvalidOutboundRuleException e) {
            throw new InvalidEngineConfigurationException("HEXAFLOW_OUTBOUND_DENY: " + e.getMessage());
        }
    }

    private static URI uri(String text) {
        try {
            URI uri = URI.create(text.strip());
            if (uri.getScheme() == null || !uri.getScheme().startsWith("http")) {
                throw new IllegalArgumentException("not http(s)");
            }
            return uri;
        } catch (IllegalArgumentException e) {
            throw new InvalidEngineConfigurationException("HEXAFLOW_LLM_BASE_URL must be an http(s) URL, was '" + text + "'");
        }
    }

    /** Comma-separated names, blank ones left out. */
    private static Set<String> names(String text) {
        Set<String> names = new LinkedHashSet<>();
        for (String name : text.split(",")) {
            if (!name.isBlank()) {
                names.add(name.strip());
            }
        }
        return names;
    }

    private static Map<String, String> models(String text) {
        Map<String, String> map = new LinkedHashMap<>();
        for (String pair : text.split(",")) {
            if (pair.isBlank()) {
                continue;
            }
            int equals = pair.indexOf('=');
            if (equals <= 0 || equals == pair.length() - 1) {
                throw new InvalidEngineConfigurationException("HEXAFLOW_LLM_MODELS takes provider=model pairs separated by commas, "
                        + "not '" + pair.strip() + "'");
            }
            map.put(pair.substring(0, equals).strip(), pair.substring(equals + 1).strip());
        }
        return map;
    }

    private static int number(Map<String, String> env, String name, int otherwise) {
        String text = env.get(name);
        if (text == null || text.isBlank()) {
            return otherwise;
        }
        try {
            int value = Integer.parseInt(text.strip());
            if (value < 1) {
                throw new NumberFormatException();
            }
            return value;
        } catch (NumberFormatException e) {
            throw new InvalidEngineConfigurationException(name + " must be a whole number above 0, was '" + text + "'");
        }
    }
}
