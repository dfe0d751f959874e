-- The receiver a delivery goes to (its URL's scheme, host and port): the deliverer holds at most a few posts to
-- one receiver at once, so that one that never answers cannot hold up deliveries to every other. Deliveries kept
-- before this count their whole URL as their receiver.
ALTER TABLE webhook_delivery ADD COLUMN receiver VARCHAR(2048);
UPDATE webhook_delivery SET receiver = url;
ALTER TABLE webhook_delivery ALTER COLUMN receiver SET NOT NULL;
