-- Mirrors and filters (issue 15). Portable SQL (H2 2.x and PostgreSQL).
-- delete_destination_extra: after every file arrived, delete what the destination has under a
-- recursive item's destination path and the source does not.
ALTER TABLE task ADD COLUMN delete_destination_extra BOOLEAN DEFAULT FALSE NOT NULL;
-- mirror_state: NULL until the extras were deleted (or the deletion was skipped), then DONE;
-- the task ends only after that, so a crash in between redoes the (idempotent) deletion.
ALTER TABLE task ADD COLUMN mirror_state VARCHAR(16);
-- filter_rules: the Globus filter_rules list as JSON, in order (first match wins), or NULL.
ALTER TABLE task ADD COLUMN filter_rules VARCHAR(65535);
