package org.ferry.mover.client;

import java.io.IOException;
import java.util.Base64;
import java.util.Locale;
import org.ferry.gsi.context.GsiContextException;
import org.ferry.gsi.context.SecurityContext;
import org.ferry.mover.data.DataChannels;
import org.ferry.mover.protocol.FtpReply;

/**
 * Opens a session on a connected control channel: the banner, GSI authentication when asked
 * ({@code AUTH GSSAPI}/{@code ADAT}, RFC 2228 section 3 with the GSI mechanism, then every command
 * and reply protected), the login (RFC 959 section 4.1.1: USER, 331, PASS, 230), {@code TYPE I},
 * and the data channel authentication the Globus tools default to (GFD.020 "DCAU").
 */
final class SessionLogin {

    private SessionLogin() {}

    /**
     * @param security the GSI context to authenticate with, or null for a clear-text login
     * @param gsi the credential and trust behind {@code security} for data channels (DCAU A when the
     *     server's FEAT lists DCAU), or null to send {@code DCAU N}
     * @return the logged-in session's control state
     * @throws GridFtpReplyException on a banner other than 220 or a refused AUTH/ADAT/login; the
     *     control channel is then closed
     * @throws IOException if the connection or GSI authentication fails
     */
    static SessionControl login(
            GridFtpUrl url, ControlChannel channel, DataChannels data, SecurityContext security, GsiClientSecurity gsi)
            throws IOException {
        SessionControl session = new SessionControl(url, channel, data);
        try {
            FtpReply banner = channel.readFinal("connect", r -> {});
            if (banner.code() != 220) {
                throw new GridFtpReplyException("connect", banner.code(), banner.text());
            }
            String userName = url.username();
            if (security != null) {
                authenticate(session, url, security);
                if (userName == null || userName.isEmpty() || userName.equals("anonymous")) {
                    userName = ":globus-mapping:"; // the server's grid-mapfile decides the account
                }
            }
            if (security == null) {
                clearTextLogin(session, channel, userName, url.password());
                return session;
            }
            FtpReply user = session.command("USER " + userName);
            if (user.code() == 331) {
                user = session.command("PASS " + url.password(), "PASS ****");
            }
            if (!user.isPositiveCompletion()) {
                throw new GridFtpReplyException("USER/PASS", user.code(), user.text());
            }
            session.expectOk("TYPE I");
            if (security != null && gsi != null) {
                FtpReply feat = session.command("FEAT");
                boolean dcau = feat.isPositiveCompletion()
                        && feat.lines().stream()
                                .anyMatch(
                                        l -> l.strip().toUpperCase(Locale.ROOT).startsWith("DCAU"));
                session.protection(new ClientDataProtection(gsi, data, dcau));
            } else if (security != null) {
                // No credential for data channels: ask for none (as the Globus tools behave). A server without
                // DCAU (5xx) is fine: its data channels are clear anyway.
                session.command("DCAU N");
            }
            return session;
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    /**
     * A clear-text login in one round trip: USER, PASS, {@code TYPE I} and FEAT written together,
     * then their replies read in order (RFC 959 section 4.2 lets a client send commands ahead of
     * replies; the server answers each in turn). A server that logs the user in at USER (230)
     * answers the PASS after it with a refusal such as 503, which is ignored; a refused USER or PASS
     * ends the login with that reply before the others are read.
     *
     * @throws GridFtpReplyException for a refused login or {@code TYPE I}
     * @throws IOException if the connection fails
     */
    private static void clearTextLogin(SessionControl session, ControlChannel channel, String userName, String password)
            throws IOException {
        channel.write("USER " + userName);
        channel.write("PASS " + password);
        channel.write("TYPE I");
        channel.write("FEAT");
        channel.flush();
        FtpReply user = channel.readFinal("USER " + userName, r -> {});
        if (user.code() == 331) {
            FtpReply pass = channel.readFinal("PASS ****", r -> {});
            if (!pass.isPositiveCompletion()) {
                throw new GridFtpReplyException("USER/PASS", pass.code(), pass.text());
            }
        } else if (user.isPositiveCompletion()) {
            channel.readFinal("PASS ****", r -> {}); // logged in at USER: the PASS was one too many
        } else {
            throw new GridFtpReplyException("USER/PASS", user.code(), user.text());
        }
        SessionControl.checkOk("TYPE I", channel.readFinal("TYPE I", r -> {}));
        session.features(channel.readFinal("FEAT", r -> {}));
    }

    /** AUTH GSSAPI, then ADAT tokens until 235; then every command and reply is protected. */
    private static void authenticate(SessionControl session, GridFtpUrl url, SecurityContext security)
            throws IOException {
        FtpReply auth = session.command("AUTH GSSAPI");
        if (auth.code() != 334) {
            throw new GridFtpReplyException("AUTH GSSAPI", auth.code(), auth.text());
        }
        try {
            byte[] token = security.step(null);
            while (true) {
                FtpReply reply = session.command("ADAT " + Base64.getEncoder().encodeToString(token), "ADAT ...");
                String text = reply.firstLineText();
                byte[] in = text.startsWith("ADAT=")
                        ? Base64.getDecoder().decode(text.substring(5).strip())
                        : null;
                if (reply.code() == 235) {
                    if (in != null && in.length > 0) {
                        security.step(in);
                    }
                    if (!security.established()) {
                        throw new IOException("server said 235 before GSI authentication was complete");
                    }
                    break;
                }
                if (reply.code() != 335) {
                    throw new GridFtpReplyException("ADAT", reply.code(), reply.text());
                }
                token = security.step(in);
                if (security.established() && (token == null || token.length == 0)) {
                    throw new IOException("GSI context complete but server still asks for ADAT");
                }
            }
        } catch (GsiContextException e) {
            throw new IOException("GSI authentication with " + url.host() + " failed: " + e.getMessage(), e);
        }
        session.channel().protect(security);
    }
}
