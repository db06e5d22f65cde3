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
    /** The destination's file system is full (552, ENOSPC). Permanent. */
    NO_SPACE_LEFT(true),
    /** The destination's quota is exhausted. Permanent. */
    QUOTA_EXCEEDED(true),
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
    /** The checksums of source and destination differ: the file is sent again whole. Transient. */
    VERIFY_CHECKSUM(false),
    /** The destination's size differs from the source's after the transfer. Transient. */
    FILE_SIZE_CHANGED(false),
    /** Anything else. Transient. */
    UNKNOWN(false);

    private final boolean permanent;

    FaultCode(boolean permanent) {
        this.permanent = permanent;
    }

    /** @return true if trying the same file again cannot help */
    public boolean isPermanent() {
        return permanent;
    }
}
