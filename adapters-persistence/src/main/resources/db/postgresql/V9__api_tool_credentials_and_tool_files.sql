-- The credential an api tool's requests carry (Dify's auth_type, and the header and prefix or the query parameter,
-- with the key), as JSON text. The key is kept as given, since it is sent to the API; the admin API never shows it
-- back, and a backup of the database holds it.
ALTER TABLE tool_binding ADD COLUMN openapi_auth TEXT;

-- The files tools make (speech, an MCP server's image): their bytes are in the blob store under blob_key.
CREATE TABLE tool_file (
    id         VARCHAR(64) PRIMARY KEY,
    blob_key   VARCHAR(255) NOT NULL,
    name       VARCHAR(1000) NOT NULL,
    extension  VARCHAR(17) NOT NULL,
    mime_type  VARCHAR(255) NOT NULL,
    size       BIGINT NOT NULL,
    created_at BIGINT NOT NULL
);
