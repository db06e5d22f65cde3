-- Full disks and quotas (issue 35). Portable SQL (H2 2.x and PostgreSQL).
-- fail_on_quota_errors: a NO_SPACE_LEFT or QUOTA_EXCEEDED fault fails the task at once; by
-- default (FALSE) the task waits and retries with back-off until its deadline (Globus semantics).
ALTER TABLE task ADD COLUMN fail_on_quota_errors BOOLEAN DEFAULT FALSE NOT NULL;
