-- Apps published as MCP servers (Dify's app_mcp_servers): one row per app, made the first time an operator turns
-- it on or describes it; the URL's code is its caller's credential, kept as a webhook trigger's code is.
CREATE TABLE app_mcp_server (
    id           VARCHAR(36) PRIMARY KEY,
    app_id       VARCHAR(36) NOT NULL UNIQUE,
    code         VARCHAR(64) NOT NULL UNIQUE,
    description  VARCHAR(20000) NOT NULL,
    enabled      BOOLEAN NOT NULL,
    parameters   VARCHAR(1000000) NOT NULL,
    created_at   BIGINT NOT NULL,
    updated_at   BIGINT NOT NULL
);
