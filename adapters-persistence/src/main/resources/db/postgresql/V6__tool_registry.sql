-- The MCP servers operators register, by name, and the tools they bind. Header and environment values are kept
-- as given, since they are sent to the server; the admin API never shows them back.
CREATE TABLE mcp_server (
    name      VARCHAR(64) PRIMARY KEY,
    transport VARCHAR(16) NOT NULL,
    url       VARCHAR(8000),
    headers   TEXT,
    command   TEXT,
    env       TEXT
);

CREATE TABLE tool_binding (
    provider   VARCHAR(1000) NOT NULL,
    tool       VARCHAR(1000) NOT NULL,
    kind       VARCHAR(16)   NOT NULL,
    mcp_server VARCHAR(64),
    mcp_tool   VARCHAR(1000),
    PRIMARY KEY (provider, tool)
);
