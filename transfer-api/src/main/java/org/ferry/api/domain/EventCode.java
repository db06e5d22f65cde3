package org.ferry.api.domain;

/**
 * Event codes (service-semantics b.5). Lifecycle codes are not errors; the rest are fault codes
 * recorded with {@code is_error: true}.
 */
public enum EventCode {
    /** Work on the task began (once per task). */
    STARTED(false),
    /** Periodic counters. */
    PROGRESS(false),
    /** The task ended successfully. */
    SUCCEEDED(false),
    /** An endpoint was activated again and the INACTIVE task resumes. */
    RESUMED(false),
    /** The owner cancelled the task. */
    CANCELED(false),
    /** The deadline passed before the task ended. */
    EXPIRED(true),
    /** A source or destination path does not exist (550). */
    FILE_NOT_FOUND(true),
    /** Login or file access refused (530, permission). */
    PERMISSION_DENIED(true),
    /**
     * An endpoint's credential expired or was deactivated: the task went INACTIVE until the owner
     * activates the endpoint again.
     */
    NO_CREDENTIALS(true),
    /** The control channel could not be opened. */
    CONNECT_FAILED(true),
    /**
     * A personal endpoint's agent (Ferry Connect) is not connected: the task waits, ACTIVE, and
     * goes on from its restart markers once the agent is back (Globus: {@code GC_NOT_CONNECTED}).
     */
    GC_NOT_CONNECTED(true),
    /**
     * The Ferry Connect relay carries the task's data: source and destination are both agents that
     * accept no inbound connection, so the receiving agent's passive ports are opened on the relay
     * and the sending agent dials them there (the relay's address in the details). Written once,
     * when the task is planned.
     */
    DATA_RELAYED(false),
    /** A control or data connection broke mid-transfer. */
    CONNECTION_BROKEN(true),
    /** The endpoint answered with another failure reply. */
    ENDPOINT_ERROR(true),
    /** An endpoint did not answer in time. */
    TIMEOUT(true),
    /**
     * Source and destination checksums differ after a transfer (the file is sent again; after its
     * last attempt it fails, the description naming both values).
     */
    VERIFY_CHECKSUM(true),
    /**
     * Source and destination agree but differ from the item's {@code external_checksum}: the file
     * fails at once (the description names both values), and so the task.
     */
    EXTERNAL_CHECKSUM_MISMATCH(true),
    /** A recursive item's source is not a directory. */
    NOT_A_DIRECTORY(true),
    /** A file item's source is a directory (use a recursive item). */
    NOT_A_FILE(true),
    /** A file item's destination path is an existing directory. */
    IS_A_DIRECTORY(true),
    /** The destination's file system is full. */
    NO_SPACE_LEFT(true),
    /** The destination's quota is exhausted. */
    QUOTA_EXCEEDED(true),
    /**
     * The destination's size differs from the source's after a transfer, or the source changed while
     * it was read (its size or modification time differ from the listing's; both named): the file
     * is sent again whole as its new version.
     */
    FILE_SIZE_CHANGED(true),
    /** Source paths were skipped for errors ({@code skip_source_errors}); listed in {@code skipped_errors}. */
    SKIPPED_ERRORS(true),
    /**
     * A destination path the source lacks was deleted ({@code delete_destination_extra}); one
     * event per deleted file or directory, the path in its details.
     */
    DESTINATION_EXTRA_DELETED(false),
    /**
     * The mirror deletion was skipped because source paths were skipped for errors: a source that
     * could not be read must never make Ferry delete its copy.
     */
    DELETE_DESTINATION_EXTRA_SKIPPED(false),
    /**
     * A recursive item's tree digest ({@code CKSM SHA256-TREE}) is the same on both servers
     * ({@code ferry_verify_tree_digest}); one event per item, the paths and the digest in its
     * details. A difference fails the task with {@link #VERIFY_CHECKSUM}.
     */
    TREE_DIGEST_VERIFIED(false),
    /**
     * The owner's e-mail about the task's end or INACTIVE state was delivered to the mail server;
     * the kind (SUCCEEDED, FAILED, INACTIVE) and the address in its details. Written after the end.
     */
    NOTIFICATION_SENT(false),
    /**
     * The mail server was down or refused the owner's e-mail: it is tried again later (the details
     * say when). Never changes the task's status.
     */
    NOTIFICATION_FAILED(true),
    /**
     * The optimizer changed the session pairs (concurrency) or the parallelism of the task's
     * endpoint pair (docs/optimizer.md); details give its inputs.
     */
    OPTIMIZER_DECISION(false),
    /** Anything else. */
    UNKNOWN(true);

    private final boolean error;

    EventCode(boolean error) {
        this.error = error;
    }

    /** @return true for fault codes */
    public boolean isError() {
        return error;
    }
}
