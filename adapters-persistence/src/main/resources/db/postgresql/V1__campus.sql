-- PostgreSQL's migrations: H2's (db/migration) version for version, in PostgreSQL's types where H2's differ
-- (TEXT for H2's character large objects and for VARCHARs wider than PostgreSQL allows, BYTEA for binary ones).
-- Campus feed: keys (hashed), their usage, and the three data sets in the order they were loaded.
CREATE TABLE campus_key (
    key_hash   CHAR(64) PRIMARY KEY,
    requests   BIGINT  NOT NULL DEFAULT 0,
    banned     BOOLEAN NOT NULL DEFAULT FALSE,
    created_at TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT CURRENT_TIMESTAMP
);

CREATE TABLE campus_tutor (
    seq            INT PRIMARY KEY,
    subject        VARCHAR(200),
    catalog_number VARCHAR(200),
    title          VARCHAR(1000),
    tutors_count   INT,
    contact_url    VARCHAR(2000)
);

CREATE TABLE campus_printer (
    seq             INT PRIMARY KEY,
    printer         VARCHAR(500),
    ad              VARCHAR(2000),
    server          VARCHAR(500),
    printer_comment VARCHAR(2000),
    driver          VARCHAR(500),
    room            VARCHAR(500),
    faculty         VARCHAR(500)
);

CREATE TABLE campus_holiday (
    seq          INT PRIMARY KEY,
    name         VARCHAR(500),
    holiday_date DATE
);
