-- Issue 14: endpoint fields of the Globus endpoint document, DELETE tasks, admin cancels.
-- Portable SQL (H2 2.x and PostgreSQL).

ALTER TABLE endpoint ADD COLUMN description VARCHAR(4096);
ALTER TABLE endpoint ADD COLUMN is_public BOOLEAN DEFAULT FALSE NOT NULL;
ALTER TABLE endpoint ADD COLUMN default_directory VARCHAR(4096);
CREATE INDEX endpoint_owner ON endpoint (owner_name);

-- a DELETE task acts on one endpoint: it has no destination
ALTER TABLE task ALTER COLUMN destination_endpoint_id DROP NOT NULL;
ALTER TABLE task ALTER COLUMN destination_endpoint DROP NOT NULL;
ALTER TABLE task ADD COLUMN delete_recursive BOOLEAN DEFAULT FALSE NOT NULL;
ALTER TABLE task ADD COLUMN ignore_missing BOOLEAN DEFAULT FALSE NOT NULL;
ALTER TABLE task ADD COLUMN canceled_by_admin BOOLEAN DEFAULT FALSE NOT NULL;
CREATE INDEX task_type_status ON task (type, status);

-- one DATA[] entry of a delete document
CREATE TABLE delete_item (
    id         UUID          NOT NULL PRIMARY KEY,
    task_id    UUID          NOT NULL REFERENCES task (id) ON DELETE CASCADE,
    item_index INTEGER       NOT NULL,
    path       VARCHAR(4096) NOT NULL
);
CREATE INDEX delete_item_task ON delete_item (task_id, item_index);
