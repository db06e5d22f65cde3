package org.ferry.mover.server.pi;

import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import org.ferry.mover.protocol.ChecksumAlgorithm;
import org.ferry.mover.server.GridFtpServer;

/**
 * Settings of an embedded or stand-alone GridFTP server.
 *
 * @param bindAddress address the control channel listens on; passive data listeners bind and
 *     announce the address the client reached the control channel on
 * @param port control channel port; 0 picks an ephemeral port (see {@link GridFtpServer#port()})
 * @param root the directory served as {@code /}; nothing outside it is reachable
 * @param anonymousAllowed accept USER {@code anonymous} or {@code ftp} with any password
 * @param authenticator checks every other USER/PASS pair
 * @param markerInterval period of 112 performance and 111 range markers while receiving in MODE E
 *     (GFD.020 "Restarting"/2.7; globus default 5 s)
 * @param idleTimeout idle control channel timeout (421 then close); globus default 600 s
 * @param dataRateLimitBytesPerSecond cap on the data the whole server sends and, separately,
 *     receives over all its data connections, in bytes per second; 0 for none (the default)
 * @param busyPoll how long an event loop keeps polling after it answered a command before it
 *     blocks, while the server has fewer sessions than cores ({@link org.ferry.mover.net.BusyPoll});
 *     {@link Duration#ZERO} for never (the default; the stand-alone ferry-gridftp turns it on)
 * @param inflightChecksums the checksums a STOR computes of a whole file while it arrives in order
 *     (stream mode, MODE E over one connection), kept with the file's identity so that CKSM answers
 *     without reading the file again (MD5 is what globus-url-copy {@code -verify-checksum} asks
 *     for); an SCKS algorithm is added for its STOR; empty for none, the default (then SCKS and
 *     CKSM read the file)
 * @param maxSessions most control connections open at once (globus {@code -connections-max}); one
 *     more is answered {@code 421 Service busy} and closed before its banner, as globus-gridftp-server
 *     does; 0 for no limit (the default). Counts sockets, not {@code --ssh}/{@code --inetd} sessions
 */
public record GridFtpServerConfig(
        InetAddress bindAddress,
        int port,
        Path root,
        boolean anonymousAllowed,
        Authenticator authenticator,
        Duration markerInterval,
        Duration idleTimeout,
        long dataRateLimitBytesPerSecond,
        Duration busyPoll,
        Set<ChecksumAlgorithm> inflightChecksums,
        int maxSessions) {

    /**
     * What a received file's checksums are computed of while it arrives, unless configured otherwise:
     * none. Hashing on the receiving event loop bounds a fast single-stream upload whether the client
     * verifies or not (docs/benchmarks.md, "Checksums computed in flight"): a site whose clients verify
     * turns it on.
     */
    public static final Set<ChecksumAlgorithm> DEFAULT_INFLIGHT_CHECKSUMS = Set.of();

    /**
     * @throws IllegalArgumentException on a port outside 0..65535, a non-positive marker interval
     *     or idle timeout, a negative busy poll window or a negative rate limit
     */
    public GridFtpServerConfig {
        Objects.requireNonNull(bindAddress, "bindAddress");
        Objects.requireNonNull(root, "root");
        Objects.requireNonNull(authenticator, "authenticator");
        Objects.requireNonNull(markerInterval, "markerInterval");
        Objects.requireNonNull(idleTimeout, "idleTimeout");
        Objects.requireNonNull(busyPoll, "busyPoll");
        inflightChecksums = Set.copyOf(inflightChecksums);
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port out of range: " + port);
        }
        if (markerInterval.isZero()
                || markerInterval.isNegative()
                || idleTimeout.isZero()
                || idleTimeout.isNegative()) {
            throw new IllegalArgumentException("durations must be positive");
        }
        if (dataRateLimitBytesPerSecond < 0) {
            throw new IllegalArgumentException("rate limit must be >= 0");
        }
        if (busyPoll.isNegative()) {
            throw new IllegalArgumentException("busy poll window must be >= 0");
        }
        if (maxSessions < 0) {
            throw new IllegalArgumentException("max sessions must be >= 0");
        }
    }

    /**
     * Without a rate limit.
     *
     * @throws IllegalArgumentException as the canonical constructor
     */
    public GridFtpServerConfig(
            InetAddress bindAddress,
            int port,
            Path root,
            boolean anonymousAllowed,
            Authenticator authenticator,
            Duration markerInterval,
            Duration idleTimeout) {
        this(
                bindAddress,
                port,
                root,
                anonymousAllowed,
                authenticator,
                markerInterval,
                idleTimeout,
                0,
                Duration.ZERO,
                DEFAULT_INFLIGHT_CHECKSUMS,
                0);
    }

    /**
     * @return true if some clear-text USER/PASS login can succeed (anonymous access or an
     *     authenticator that accepts someone; globus {@code -aa} or {@code -password-file}); false
     *     for a server whose only login is GSI
     */
    public boolean clearTextLoginsAllowed() {
        return anonymousAllowed || !authenticator.refusesEveryone();
    }

    /**
     * A loopback server on an ephemeral port with no logins allowed yet: 127.0.0.1, port 0, no
     * anonymous access, {@link Authenticator#denyAll()}, markers every 5 s, idle timeout 600 s.
     *
     * @param root the directory to serve
     * @return the configuration
     */
    public static GridFtpServerConfig loopback(Path root) {
        return new GridFtpServerConfig(
                InetAddress.getLoopbackAddress(),
                0,
                root,
                false,
                Authenticator.denyAll(),
                Duration.ofSeconds(5),
                Duration.ofSeconds(600));
    }

    /**
     * @param value the new setting
     * @return a copy with another bind address
     */
    public GridFtpServerConfig withBindAddress(InetAddress value) {
        return new GridFtpServerConfig(
                value,
                port,
                root,
                anonymousAllowed,
                authenticator,
                markerInterval,
                idleTimeout,
                dataRateLimitBytesPerSecond,
                busyPoll,
                inflightChecksums,
                maxSessions);
    }

    /**
     * @param value the new setting
     * @return a copy with another port
     */
    public GridFtpServerConfig withPort(int value) {
        return new GridFtpServerConfig(
                bindAddress,
                value,
                root,
                anonymousAllowed,
                authenticator,
                markerInterval,
                idleTimeout,
                dataRateLimitBytesPerSecond,
                busyPoll,
                inflightChecksums,
                maxSessions);
    }

    /**
     * @param value the new setting
     * @return a copy with anonymous logins allowed or not
     */
    public GridFtpServerConfig withAnonymousAllowed(boolean value) {
        return new GridFtpServerConfig(
                bindAddress,
                port,
                root,
                value,
                authenticator,
                markerInterval,
                idleTimeout,
                dataRateLimitBytesPerSecond,
                busyPoll,
                inflightChecksums,
                maxSessions);
    }

    /**
     * @param value the new setting
     * @return a copy with another authenticator
     */
    public GridFtpServerConfig withAuthenticator(Authenticator value) {
        return new GridFtpServerConfig(
                bindAddress,
                port,
                root,
                anonymousAllowed,
                value,
                markerInterval,
                idleTimeout,
                dataRateLimitBytesPerSecond,
                busyPoll,
                inflightChecksums,
                maxSessions);
    }

    /**
     * @param value the new setting
     * @return a copy with another marker interval
     */
    public GridFtpServerConfig withMarkerInterval(Duration value) {
        return new GridFtpServerConfig(
                bindAddress,
                port,
                root,
                anonymousAllowed,
                authenticator,
                value,
                idleTimeout,
                dataRateLimitBytesPerSecond,
                busyPoll,
                inflightChecksums,
                maxSessions);
    }

    /**
     * @param value the new setting
     * @return a copy with another idle timeout
     */
    public GridFtpServerConfig withIdleTimeout(Duration value) {
        return new GridFtpServerConfig(
                bindAddress,
                port,
                root,
                anonymousAllowed,
                authenticator,
                markerInterval,
                value,
                dataRateLimitBytesPerSecond,
                busyPoll,
                inflightChecksums,
                maxSessions);
    }

    /**
     * @param bytesPerSecond the new cap on each direction of the server's data traffic, 0 for none
     * @return a copy with another data rate limit
     */
    public GridFtpServerConfig withDataRateLimit(long bytesPerSecond) {
        return new GridFtpServerConfig(
                bindAddress,
                port,
                root,
                anonymousAllowed,
                authenticator,
                markerInterval,
                idleTimeout,
                bytesPerSecond,
                busyPoll,
                inflightChecksums,
                maxSessions);
    }

    /**
     * @param window the new busy poll window, {@link Duration#ZERO} for none
     * @return a copy with another busy poll window
     */
    public GridFtpServerConfig withBusyPoll(Duration window) {
        return new GridFtpServerConfig(
                bindAddress,
                port,
                root,
                anonymousAllowed,
                authenticator,
                markerInterval,
                idleTimeout,
                dataRateLimitBytesPerSecond,
                window,
                inflightChecksums,
                maxSessions);
    }

    /**
     * @param algorithms the checksums computed while a file arrives; empty for none
     * @return a copy with other in-flight checksums
     */
    public GridFtpServerConfig withInflightChecksums(Set<ChecksumAlgorithm> algorithms) {
        return new GridFtpServerConfig(
                bindAddress,
                port,
                root,
                anonymousAllowed,
                authenticator,
                markerInterval,
                idleTimeout,
                dataRateLimitBytesPerSecond,
                busyPoll,
                algorithms,
                maxSessions);
    }

    /**
     * @param value most control connections open at once; 0 for no limit
     * @return a copy with another session limit
     */
    public GridFtpServerConfig withMaxSessions(int value) {
        return new GridFtpServerConfig(
                bindAddress,
                port,
                root,
                anonymousAllowed,
                authenticator,
                markerInterval,
                idleTimeout,
                dataRateLimitBytesPerSecond,
                busyPoll,
                inflightChecksums,
                value);
    }
}
