-- E-mail notifications (issue 15 item 4). Portable SQL (H2 2.x and PostgreSQL).
-- The owner's address: where a task's notifications go (none: no mail).
ALTER TABLE ferry_user ADD COLUMN email VARCHAR(254);

-- The task's notify_on_* choices (Globus: each defaults to true when omitted).
ALTER TABLE task ADD COLUMN notify_on_succeeded BOOLEAN DEFAULT TRUE NOT NULL;
ALTER TABLE task ADD COLUMN notify_on_failed BOOLEAN DEFAULT TRUE NOT NULL;
ALTER TABLE task ADD COLUMN notify_on_inactive BOOLEAN DEFAULT TRUE NOT NULL;

-- The outbox: one row per task and kind (SUCCEEDED, FAILED, INACTIVE), written in the transaction
-- that ends or suspends the task, sent after the commit by a scheduled job. A row is claimed by an
-- UPDATE ... WHERE claimed_by IS NULL OR claim_expires < now, so two instances never send it twice
-- at once; sent_time set means done; attempts and next_attempt give the back-off.
CREATE TABLE task_notification (
    task_id       UUID          NOT NULL,
    kind          VARCHAR(16)   NOT NULL,
    created_time  TIMESTAMP WITH TIME ZONE NOT NULL,
    attempts      INTEGER       DEFAULT 0 NOT NULL,
    next_attempt  TIMESTAMP WITH TIME ZONE NOT NULL,
    claimed_by    VARCHAR(128),
    claim_expires TIMESTAMP WITH TIME ZONE,
    sent_time     TIMESTAMP WITH TIME ZONE,
    last_error    VARCHAR(1024),
    PRIMARY KEY (task_id, kind)
);
CREATE INDEX task_notification_due ON task_notification (sent_time, next_attempt);

-- A timer's e-mail choice for its runs: every_run (each run's end) or failure (only a FAILED or
-- INACTIVE run; the default).
ALTER TABLE timer ADD COLUMN notify_on VARCHAR(16) DEFAULT 'failure' NOT NULL;
