-- Where instances share the store, the first start is claimed by one of them (claimed_by) and marked done apart
-- ('first_start_done'), so that a claim whose instance died before finishing (its lease lapsed) is taken over by
-- the next instance that starts. A database whose first start was claimed before had it done.
ALTER TABLE server_state ADD COLUMN claimed_by VARCHAR(64);
INSERT INTO server_state (name, claimed_at) SELECT 'first_start_done', claimed_at FROM server_state
WHERE name = 'first_start';
