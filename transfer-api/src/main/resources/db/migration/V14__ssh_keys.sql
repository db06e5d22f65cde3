-- SSH public keys of accounts (issue 37): a user whose key is registered here runs the ferry
-- commands over ferry-server's SSH port. Portable SQL (H2 2.x and PostgreSQL).
CREATE TABLE ssh_key (
    id             UUID          NOT NULL PRIMARY KEY,
    account_id     UUID          NOT NULL REFERENCES ferry_user (id) ON DELETE CASCADE,
    -- OpenSSH's SHA256:... fingerprint of the key; one account registers a key once
    fingerprint    VARCHAR(128)  NOT NULL,
    -- the key as one authorized_keys line: type and base64 blob, no comment, no options
    public_key     VARCHAR(16384) NOT NULL,
    description    VARCHAR(256),
    created_time   TIMESTAMP WITH TIME ZONE NOT NULL,
    last_used_time TIMESTAMP WITH TIME ZONE,
    CONSTRAINT ssh_key_account_fingerprint UNIQUE (account_id, fingerprint)
);
CREATE INDEX ssh_key_fingerprint ON ssh_key (fingerprint);
