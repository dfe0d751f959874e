-- The credential an api tool's requests carry (Dify's auth_type, and the header and prefix or the query parameter,
-- with the key), as JSON text. The key is kept as given, since it is sent to the API; the admin API never shows it
-- back, and a backup of the database holds it.
ALTER TABLE tool_binding ADD COLUMN openapi_auth CHARACTER LARGE OBJECT;
