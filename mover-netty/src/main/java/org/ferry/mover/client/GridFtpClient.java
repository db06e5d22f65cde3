package org.ferry.mover.client;

import io.netty.channel.EventLoopGroup;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import org.ferry.mover.data.DataChannels;
import org.ferry.mover.net.Transport;

/**
 * Opens GridFTP control sessions. One instance owns the Netty event loop shared by all of its
 * sessions; close it to release the threads.
 */
public final class GridFtpClient implements AutoCloseable {

    /** Connect/read timeout applied to every reply wait. */
    private final Duration replyTimeout;

    private final EventLoopGroup group;
    private final DataChannels dataChannels;
    private final GsiClientSecurity gsi;
    private final SshftpSecurity ssh;
    /** Made on the first sshftp:// session: the SSH client and the loop of in-JVM control channels. */
    private SshConnector sshConnector;

    private EventLoopGroup localGroup;

    /** @param replyTimeout how long to wait for any one reply before failing with an IOException */
    public GridFtpClient(Duration replyTimeout) {
        this(replyTimeout, null);
    }

    /**
     * @param replyTimeout how long to wait for any one reply before failing with an IOException
     * @param gsi credential and trust for {@code gsiftp://} URLs (AUTH GSSAPI), or null for none
     */
    public GridFtpClient(Duration replyTimeout, GsiClientSecurity gsi) {
        this(replyTimeout, gsi, null, null);
    }

    /**
     * @param replyTimeout how long to wait for any one reply before failing with an IOException
     * @param gsi credential and trust for {@code gsiftp://} URLs (AUTH GSSAPI), or null for none
     * @param threads makes the event loop's threads (e.g. daemon threads for a library that must not
     *     keep the JVM alive), or null for Netty's non-daemon ones
     */
    public GridFtpClient(Duration replyTimeout, GsiClientSecurity gsi, ThreadFactory threads) {
        this(replyTimeout, gsi, null, threads);
    }

    /**
     * @param replyTimeout how long to wait for any one reply before failing with an IOException
     * @param gsi credential and trust for {@code gsiftp://} URLs (AUTH GSSAPI), or null for none
     * @param ssh host keys, login keys and remote command for {@code sshftp://} URLs, or null for
     *     {@link SshftpSecurity#userDefaults()} (what {@code ssh} would use)
     */
    public GridFtpClient(Duration replyTimeout, GsiClientSecurity gsi, SshftpSecurity ssh) {
        this(replyTimeout, gsi, ssh, null);
    }

    /**
     * @param replyTimeout how long to wait for any one reply before failing with an IOException
     * @param gsi credential and trust for {@code gsiftp://} URLs (AUTH GSSAPI), or null for none
     * @param ssh host keys, login keys and remote command for {@code sshftp://} URLs, or null for
     *     {@link SshftpSecurity#userDefaults()} (what {@code ssh} would use)
     * @param threads makes the event loop's threads, or null for Netty's non-daemon ones
     */
    public GridFtpClient(Duration replyTimeout, GsiClientSecurity gsi, SshftpSecurity ssh, ThreadFactory threads) {
        this.replyTimeout = replyTimeout;
        this.gsi = gsi;
        this.ssh = ssh;
        this.group = Transport.preferred().newGroup(0, threads);
        this.dataChannels = new DataChannels(group, DataChannels.DEFAULT_BLOCK_SIZE_BYTES, replyTimeout);
    }

    /** A client with a 120-second reply timeout. */
    public GridFtpClient() {
        this(Duration.ofSeconds(120));
    }

    /**
     * Connects, reads the 220 banner, logs in with USER/PASS from the URL, sends TYPE I.
     *
     * @param url server and credentials (the path is ignored)
     * @return a logged-in session
     * @throws IOException if the connection or the login fails (530 as {@link GridFtpReplyException});
     *     {@code gsiftp://} URLs need the client to have been made with {@link GsiClientSecurity}
     */
    public GridFtpSession open(GridFtpUrl url) throws IOException {
        return open(url, gsi);
    }

    /**
     * As {@link #open(GridFtpUrl)} with this session's own GSI settings instead of the client's
     * (a service logs in to each endpoint with the credential activated for it).
     *
     * @param url server and credentials (the path is ignored)
     * @param gsi the credential, trust and server subject for a {@code gsiftp://} URL; ignored for
     *     {@code ftp://}
     * @return a logged-in session
     * @throws IOException if the connection or the login fails, or a {@code gsiftp://} URL comes
     *     without {@code gsi}
     */
    public GridFtpSession open(GridFtpUrl url, GsiClientSecurity gsi) throws IOException {
        if (url.scheme().equals("gsiftp") && gsi == null) {
            throw new IOException("gsiftp:// needs a GSI credential (an activated endpoint or a GridFtpClient made"
                    + " with GsiClientSecurity): " + url);
        }
        if (url.scheme().equals("sshftp")) {
            return openSsh(url, ssh != null ? ssh : SshftpSecurity.userDefaults());
        }
        ControlChannel control = ControlChannel.connect(group, url.host(), url.port(), replyTimeout);
        if (url.scheme().equals("gsiftp")) {
            try {
                return DefaultGridFtpSession.login(
                        url, control, dataChannels, gsi.newInitiator(url.host(), url.port()), gsi);
            } catch (org.ferry.gsi.context.GsiContextException e) {
                control.close();
                throw new IOException("cannot set up GSI for " + url + ": " + e.getMessage(), e);
            }
        }
        return DefaultGridFtpSession.login(url, control, dataChannels);
    }

    /**
     * Opens an {@code sshftp://} session with these SSH settings instead of the client's (a service
     * logs in to each endpoint with the key and pinned host key stored for it): SSH login, the
     * remote command (the server in {@code -ssh} mode), then USER/PASS as globus-url-copy sends
     * them (the server ignores the password: sshd authenticated the user), TYPE I. Data channels go
     * over TCP to and from the host, as with {@code ftp://}.
     *
     * @param url {@code sshftp://[user@]host[:port]}
     * @param security host keys, login keys, remote command
     * @return a logged-in session
     * @throws IOException if the host key is not trusted, no key is accepted, the remote command is
     *     no GridFTP server (its 500, or what it wrote to standard error), or the login fails
     */
    public GridFtpSession openSsh(GridFtpUrl url, SshftpSecurity security) throws IOException {
        if (!url.scheme().equals("sshftp")) {
            throw new IOException("not an sshftp:// URL: " + url);
        }
        SshConnector connector;
        EventLoopGroup loop;
        synchronized (this) {
            if (sshConnector == null) {
                sshConnector = new SshConnector();
                localGroup = org.ferry.mover.net.StreamBridge.newGroup();
            }
            connector = sshConnector;
            loop = localGroup;
        }
        // outside the lock: sessions of one client log in side by side
        SshConnector.Exec exec = connector.open(url.host(), url.port(), url.username(), url.password(), security);
        ControlChannel control;
        try {
            control = ControlChannel.overSsh(loop, exec, replyTimeout);
        } catch (IOException e) {
            exec.close();
            throw e;
        }
        try {
            return DefaultGridFtpSession.login(
                    url.password().isEmpty() ? url.withPassword("dummy") : url, control, dataChannels);
        } catch (IOException e) {
            control.close();
            String stderr = exec.stderr();
            throw stderr.isEmpty()
                    ? e
                    : new IOException(
                            e.getMessage() + " (remote command " + security.remoteCommand() + " said: " + stderr + ")",
                            e);
        }
    }

    /** Shuts the event loop down, closing any sessions still open. */
    @Override
    public void close() {
        synchronized (this) {
            if (sshConnector != null) {
                sshConnector.close();
                localGroup.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
            }
        }
        dataChannels.close();
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
