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

    /** @param replyTimeout how long to wait for any one reply before failing with an IOException */
    public GridFtpClient(Duration replyTimeout) {
        this(replyTimeout, null);
    }

    /**
     * @param replyTimeout how long to wait for any one reply before failing with an IOException
     * @param gsi credential and trust for {@code gsiftp://} URLs (AUTH GSSAPI), or null for none
     */
    public GridFtpClient(Duration replyTimeout, GsiClientSecurity gsi) {
        this(replyTimeout, gsi, null);
    }

    /**
     * @param replyTimeout how long to wait for any one reply before failing with an IOException
     * @param gsi credential and trust for {@code gsiftp://} URLs (AUTH GSSAPI), or null for none
     * @param threads makes the event loop's threads (e.g. daemon threads for a library that must not
     *     keep the JVM alive), or null for Netty's non-daemon ones
     */
    public GridFtpClient(Duration replyTimeout, GsiClientSecurity gsi, ThreadFactory threads) {
        this.replyTimeout = replyTimeout;
        this.gsi = gsi;
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

    /** Shuts the event loop down, closing any sessions still open. */
    @Override
    public void close() {
        dataChannels.close();
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
