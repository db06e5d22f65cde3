package org.ferry.mover.runner;

/**
 * What kind of fault stopped an attempt, in the Globus Transfer API's fault codes (the service maps
 * them onto its event codes by name).
 */
public enum FaultCode {
    /** A source or destination path does not exist (550). */
    FILE_NOT_FOUND,
    /** Login or file access refused (530, permission). */
    PERMISSION_DENIED,
    /** An endpoint could not be reached. */
    CONNECT_FAILED,
    /** A control or data connection broke. */
    CONNECTION_BROKEN,
    /** An endpoint answered with an error reply. */
    ENDPOINT_ERROR,
    /** An endpoint did not answer in time. */
    TIMEOUT,
    /**
     * An endpoint's activated credential expired: nothing moves until the owner activates it again,
     * so no attempt is retried (the task goes INACTIVE).
     */
    NO_CREDENTIALS,
    /** The checksums of source and destination differ. */
    VERIFY_CHECKSUM,
    /** Anything else. */
    UNKNOWN
}
