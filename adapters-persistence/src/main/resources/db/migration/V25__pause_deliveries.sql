-- A delivery tells its receiver a run's end ('completion', rendered from the run as it is sent) or one pause of
-- the run ('paused'): a pause cannot be rendered again once the run has gone on, so its body is made when the run
-- pauses and kept in payload. Deliveries kept before this are completions.
ALTER TABLE webhook_delivery ADD COLUMN kind VARCHAR(20) DEFAULT 'completion' NOT NULL;
ALTER TABLE webhook_delivery ADD COLUMN payload VARCHAR(16777216);
-- A run's completion delivery, found when the run pauses (its receiver hears of the pause) or ends after one.
CREATE INDEX webhook_delivery_run ON webhook_delivery (run_id);
