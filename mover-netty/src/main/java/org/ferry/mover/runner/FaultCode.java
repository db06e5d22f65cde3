package org.ferry.mover.runner;

/**
 * What kind of fault stopped an attempt, in the Globus Transfer API's fault codes (the service maps
 * them onto its event codes by name), and whether trying again can help: a transient fault is
 * retried with back-off until the task's deadline, a permanent one fails (or, for a source path
 * with {@code skip_source_errors}, skips) the file at once, as Globus and FTS3 do
 * (service-semantics b.4, b.11).
 */
public enum FaultCode {
    /** A source or destination path does not exist (550). Permanent. */
    FILE_NOT_FOUND(true),
    /** Login or file access refused (530, 550/553 naming a permission). Permanent. */
    PERMISSION_DENIED(true),
    /** The path names a directory or another non-file. Permanent. */
    NOT_A_FILE(true),
    /**
     * The destination's file system is full (ENOSPC; 452, 552, or a 451 saying so). Transient: space
     * may be freed, so the chunk stops at once and the service waits and retries with back-off until
     * the deadline, unless the task asks for {@code fail_on_quota_errors} ({@link #waitsForSpace}).
     */
    NO_SPACE_LEFT(false),
    /** The destination's quota is exhausted (EDQUOT, a reply naming a quota). Transient, as {@link #NO_SPACE_LEFT}. */
    QUOTA_EXCEEDED(false),
    /** An endpoint could not be reached. Transient. */
    CONNECT_FAILED(false),
    /** A control or data connection broke. Transient. */
    CONNECTION_BROKEN(false),
    /** An endpoint answered with an error reply not listed above (4xx and other 5xx). Transient. */
    ENDPOINT_ERROR(false),
    /** An endpoint did not answer in time. Transient. */
    TIMEOUT(false),
    /**
     * An endpoint's activated credential expired (or is about to): nothing moves until the owner
     * activates the endpoint again, so the runner does not retry and the chunk stops; the service
     * makes the task INACTIVE. Transient.
     */
    NO_CREDENTIALS(false),
    /**
     * The checksums of source and destination differ: the file is sent again whole. Transient while
     * attempts are left; the runner gives the file up (permanently) after its last attempt.
     */
    VERIFY_CHECKSUM(false),
    /**
     * Source and destination agree, but not with the checksum the user gave ({@code
     * external_checksum}): the source is not what the user meant to send. Permanent.
     */
    EXTERNAL_CHECKSUM_MISMATCH(true),
    /**
     * The destination's size differs from the source's after the transfer, or the source itself
     * changed while it was read (its size or modification time differ from the plan): the file is
     * sent again whole. Transient.
     */
    FILE_SIZE_CHANGED(false),
    /** Anything else. Transient. */
    UNKNOWN(false);

    private final boolean permanent;

    FaultCode(boolean permanent) {
        this.permanent = permanent;
    }

    /**
     * @return true for {@link #NO_SPACE_LEFT} and {@link #QUOTA_EXCEEDED}: retrying within seconds
     *     cannot help, but freed space can, so the chunk stops at once and the task waits (Globus:
     *     "the task will wait for space"; FTS3 counts "destination full" as the commonest failure)
     */
    public boolean waitsForSpace() {
        return this == NO_SPACE_LEFT || this == QUOTA_EXCEEDED;
    }

    /** @return true if trying the same file again cannot help */
    public boolean isPermanent() {
        return permanent;
    }
}
