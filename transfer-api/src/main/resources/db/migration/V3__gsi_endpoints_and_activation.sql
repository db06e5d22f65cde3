-- Issue 13: GSI endpoints, activation, secrets sealed at rest. Portable SQL (H2 2.x and
-- PostgreSQL). Every secret column holds a CredentialCipher value (AES-256-GCM,
-- "fc1:<key id>:<base64>"), never clear text.

-- Endpoint passwords move to password_sealed (V13_2 seals the existing ones, V13_3 drops the
-- clear-text column). The MyProxy server users of the endpoint activate against by default.
ALTER TABLE endpoint ADD COLUMN password_sealed VARCHAR(4096);
ALTER TABLE endpoint ADD COLUMN myproxy_server VARCHAR(512);
ALTER TABLE endpoint ADD COLUMN myproxy_dn VARCHAR(1024);

-- The short-lived credential a user activated an endpoint with: one per (endpoint, user), kept
-- until it expires or is deactivated. The sealed value is the proxy credential as PEM (key and
-- chain); subject and not_after are the credential's identity and end, shown by endpoint show.
CREATE TABLE endpoint_credential (
    id                UUID           NOT NULL PRIMARY KEY,
    endpoint_id       UUID           NOT NULL REFERENCES endpoint (id) ON DELETE CASCADE,
    owner_name        VARCHAR(64)    NOT NULL,
    method            VARCHAR(32)    NOT NULL,
    subject           VARCHAR(1024)  NOT NULL,
    not_after         TIMESTAMP WITH TIME ZONE NOT NULL,
    myproxy_server    VARCHAR(512),
    sealed_credential VARCHAR(200000) NOT NULL,
    created_time      TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT endpoint_credential_one_per_user UNIQUE (endpoint_id, owner_name)
);
CREATE INDEX endpoint_credential_owner ON endpoint_credential (owner_name);

-- Delegate-proxy activation: the key pair the service made for a user and an endpoint; the
-- public key goes out in the activation requirements, the private key never leaves (sealed).
CREATE TABLE delegation_request (
    id                 UUID          NOT NULL PRIMARY KEY,
    endpoint_id        UUID          NOT NULL REFERENCES endpoint (id) ON DELETE CASCADE,
    owner_name         VARCHAR(64)   NOT NULL,
    public_key         VARCHAR(8192) NOT NULL,
    sealed_private_key VARCHAR(16384) NOT NULL,
    created_time       TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT delegation_request_one_per_user UNIQUE (endpoint_id, owner_name)
);

-- CA files a user bootstrapped from a MyProxy server (myproxy-logon -b): they add to the site's
-- trust directory for that user's sessions only.
CREATE TABLE trust_root (
    id           UUID           NOT NULL PRIMARY KEY,
    owner_name   VARCHAR(64)    NOT NULL,
    file_name    VARCHAR(64)    NOT NULL,
    content      VARCHAR(200000) NOT NULL,
    source       VARCHAR(600)   NOT NULL,
    created_time TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT trust_root_one_file_per_user UNIQUE (owner_name, file_name)
);

-- encrypt_data: PROT P on every data channel of the task
ALTER TABLE task ADD COLUMN encrypt_data BOOLEAN DEFAULT FALSE NOT NULL;
CREATE INDEX task_owner_status ON task (owner_name, status);
