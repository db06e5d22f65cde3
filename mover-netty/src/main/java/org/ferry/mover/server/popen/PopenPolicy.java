package org.ferry.mover.server.popen;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * A server's popen settings: which programs may run and the limits every run has.
 *
 * @param allowList the programs; empty turns popen off (the default)
 * @param timeout the longest a program may run; it is stopped after (SIGTERM, then SIGKILL) and
 *     the transfer fails with 451
 * @param spoolDirectory where a program's output, or the data for its input, waits on disk (files
 *     readable by the server's account only, deleted after the transfer)
 * @param spoolLimitBytes the most bytes a program may write, or a client may send to one; more
 *     stops the transfer with 552
 */
public record PopenPolicy(PopenAllowList allowList, Duration timeout, Path spoolDirectory, long spoolLimitBytes) {

    /** Default {@link #timeout}: an hour. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofHours(1);

    /** Default {@link #spoolLimitBytes}: 64 GiB. */
    public static final long DEFAULT_SPOOL_LIMIT_BYTES = 64L << 30;

    /** @throws IllegalArgumentException for a non-positive timeout or spool limit */
    public PopenPolicy {
        Objects.requireNonNull(allowList, "allowList");
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(spoolDirectory, "spoolDirectory");
        if (timeout.isZero() || timeout.isNegative() || spoolLimitBytes <= 0) {
            throw new IllegalArgumentException("popen timeout and spool limit must be positive");
        }
    }

    /** @return popen off: no program may run */
    public static PopenPolicy disabled() {
        return new PopenPolicy(
                PopenAllowList.none(),
                DEFAULT_TIMEOUT,
                Path.of(System.getProperty("java.io.tmpdir")),
                DEFAULT_SPOOL_LIMIT_BYTES);
    }

    /**
     * @param allowList the programs
     * @return these limits with the default timeout and spool under {@code java.io.tmpdir}
     */
    public static PopenPolicy allowing(PopenAllowList allowList) {
        return new PopenPolicy(
                allowList, DEFAULT_TIMEOUT, Path.of(System.getProperty("java.io.tmpdir")), DEFAULT_SPOOL_LIMIT_BYTES);
    }

    /** @return true if some program may run */
    public boolean enabled() {
        return !allowList.isEmpty();
    }

    /** @return a copy with another timeout */
    public PopenPolicy withTimeout(Duration value) {
        return new PopenPolicy(allowList, value, spoolDirectory, spoolLimitBytes);
    }

    /** @return a copy with another spool limit */
    public PopenPolicy withSpoolLimitBytes(long value) {
        return new PopenPolicy(allowList, timeout, spoolDirectory, value);
    }

    /** @return a copy with another spool directory */
    public PopenPolicy withSpoolDirectory(Path value) {
        return new PopenPolicy(allowList, timeout, value, spoolLimitBytes);
    }
}
