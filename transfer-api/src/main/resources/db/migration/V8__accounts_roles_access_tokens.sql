-- Issue 14: local accounts with hashed passwords and roles; personal access tokens (hash only,
-- several per account, each with an optional expiry). The first-start admin keeps its token.

ALTER TABLE ferry_user ADD COLUMN password_hash VARCHAR(255);
ALTER TABLE ferry_user ADD COLUMN role VARCHAR(16) DEFAULT 'USER' NOT NULL;
ALTER TABLE ferry_user ADD COLUMN disabled BOOLEAN DEFAULT FALSE NOT NULL;
UPDATE ferry_user SET role = 'ADMIN' WHERE name = 'admin';

CREATE TABLE access_token (
    id             UUID          NOT NULL PRIMARY KEY,
    account_id     UUID          NOT NULL REFERENCES ferry_user (id) ON DELETE CASCADE,
    -- SHA-256 of the token, lowercase hex; the token itself is never stored
    token_hash     VARCHAR(64)   NOT NULL UNIQUE,
    description    VARCHAR(256),
    created_time   TIMESTAMP WITH TIME ZONE NOT NULL,
    expires_time   TIMESTAMP WITH TIME ZONE,
    last_used_time TIMESTAMP WITH TIME ZONE
);
CREATE INDEX access_token_account ON access_token (account_id);

INSERT INTO access_token (id, account_id, token_hash, description, created_time)
    SELECT id, id, token_hash, 'first-start token (FERRY_HOME/token)', created_time FROM ferry_user;

ALTER TABLE ferry_user DROP COLUMN token_hash;
