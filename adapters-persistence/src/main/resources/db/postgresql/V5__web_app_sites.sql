-- Each app's web page: a public code, made at import (apps kept before this get one here), and whether the page
-- is served.
ALTER TABLE app ADD COLUMN site_code VARCHAR(32);
ALTER TABLE app ADD COLUMN site_enabled BOOLEAN DEFAULT TRUE NOT NULL;
UPDATE app SET site_code = LEFT(REPLACE(CAST(gen_random_uuid() AS VARCHAR), '-', ''), 16);
ALTER TABLE app ALTER COLUMN site_code SET NOT NULL;
CREATE UNIQUE INDEX app_site_code ON app (site_code);
