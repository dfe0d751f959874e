-- A tool node whose app, run as a tool, waits for a person pauses its own run with a form that forwards to the
-- called run's form. Both columns are null for a human-input node's own form. The first finds the callers of a
-- called run that ended or paused again; the second says which of its forms the caller waits on.
-- (V25 is left to the webhook deliveries on pause, made beside this.)
ALTER TABLE human_input_form ADD COLUMN forwards_to_run_id VARCHAR(36);
ALTER TABLE human_input_form ADD COLUMN forwards_to_form_id VARCHAR(36);
CREATE INDEX human_input_form_forwards_to ON human_input_form (forwards_to_run_id);
