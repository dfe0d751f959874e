-- Several instances may serve one PostgreSQL database (H2's is locked to one process, which writes these too).
-- Each instance holds a lease it renews every few seconds; a run records the instance that runs it, so that the
-- runs of an instance whose lease has run out (it died) are failed by another instance rather than left running.
-- An instance's origin (host:port) on its machine is where the others may call it as they call themselves.
CREATE TABLE instance_lease (
    id         VARCHAR(36) PRIMARY KEY,
    started_at BIGINT NOT NULL,
    renewed_at BIGINT NOT NULL,
    machine    VARCHAR(255),
    origin     VARCHAR(300)
);
ALTER TABLE workflow_run ADD COLUMN instance_id VARCHAR(36);

-- Secrets every instance must share (the key that signs web page tokens and file URLs, the admin token's hash):
-- made once by the first instance that needs one, read by the others.
CREATE TABLE shared_secret (
    name   VARCHAR(100) PRIMARY KEY,
    secret VARCHAR(200) NOT NULL
);
