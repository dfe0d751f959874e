-- A tool may be bound to an operation of an OpenAPI document (its URL or its text, and the operationId) or to
-- another app of this server, besides an MCP server's tool.
ALTER TABLE tool_binding ADD COLUMN openapi_document TEXT;
ALTER TABLE tool_binding ADD COLUMN openapi_operation VARCHAR(1000);
ALTER TABLE tool_binding ADD COLUMN app_id VARCHAR(255);
