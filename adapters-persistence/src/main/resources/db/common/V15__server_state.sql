-- What the server has done once in this database's life. 'first_start' is claimed by the first server start, which
-- loads the bundled campus data, issues a campus key and imports the demo apps; a database that a command made
-- before any server start (hexaflow knowledge create, apps import) still gets them at the server's first start.
CREATE TABLE server_state (
    name       VARCHAR(100) PRIMARY KEY,
    claimed_at BIGINT NOT NULL
);
-- A database a server has already started on (it holds campus data or keys) has had its first start.
INSERT INTO server_state (name, claimed_at)
SELECT 'first_start', 0 FROM (VALUES (1)) AS one (x)
WHERE EXISTS (SELECT 1 FROM campus_key) OR EXISTS (SELECT 1 FROM campus_holiday)
   OR EXISTS (SELECT 1 FROM campus_tutor) OR EXISTS (SELECT 1 FROM campus_printer);
