-- Issue 33: personal endpoints (Ferry Connect). The agent's id on the service's relay; null for
-- an endpoint that is a GridFTP server of its own. Portable SQL (H2 2.x and PostgreSQL).

ALTER TABLE endpoint ADD COLUMN connect_agent_id VARCHAR(32);
ALTER TABLE endpoint ADD COLUMN connect_revoked BOOLEAN DEFAULT FALSE NOT NULL;
