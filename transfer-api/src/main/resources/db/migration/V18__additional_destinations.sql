-- Multicast (issue 32 item 4): a transfer's further destinations, Ferry's extension
-- ferry_additional_destination_endpoints. Each gets every file of the task at the same destination
-- path, forwarded by the destination endpoint's server. Portable SQL (H2 2.x and PostgreSQL).
CREATE TABLE task_destination (
    task_id     UUID         NOT NULL REFERENCES task (id) ON DELETE CASCADE,
    position    INTEGER      NOT NULL,
    endpoint_id UUID         NOT NULL,
    endpoint    VARCHAR(200) NOT NULL,
    PRIMARY KEY (task_id, position)
);
