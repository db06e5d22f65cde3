-- preserve_timestamp (issue 14): each destination file gets its source's modification time.
-- Portable SQL (H2 2.x and PostgreSQL).
ALTER TABLE task ADD COLUMN preserve_timestamp BOOLEAN DEFAULT FALSE NOT NULL;
-- The source file's modification time as the planner listed it (MLSx Modify fact), or NULL when
-- the source gave none (the mover then asks the source); what the mover sets with MFMT.
ALTER TABLE transfer_file ADD COLUMN source_modified TIMESTAMP WITH TIME ZONE;
