package org.ferry.mover.client;

import java.io.IOException;
import java.util.Objects;
import org.ferry.gsi.context.GsiContextException;
import org.ferry.mover.data.DataChannels;
import org.ferry.mover.data.security.DataChannelAuthentication;
import org.ferry.mover.data.security.DataChannelSecurity;
import org.ferry.mover.data.security.ProtectionLevel;

/**
 * The client's side of DCAU/PBSZ/PROT for one GSI session (GFD.020 "DCAU", RFC 2228 section 3 (PROT, PBSZ); GFD.020 "DCAU", RFC 2228 section 3 (PROT); as the Globus tools behave):
 * what the server currently has, and what a transfer wants. DCAU defaults to A when the server's
 * FEAT lists {@code DCAU} (it is then already A after the GSI login), to N otherwise; PROT to C.
 * Commands go only when the wanted setting differs from the server's, so transfers with the same
 * options cost no extra round trips. Not thread-safe: used by its session's caller thread.
 */
final class ClientDataProtection {

    /** The PBSZ globus clients send: min(1 MiB, gss_wrap_size_limit) (reference 2.11). */
    static final long PROTECTION_BUFFER_BYTES = 1 << 20;

    /** Sends one command and fails on a non-2xx reply. */
    interface Commands {
        /**
         * @param command the command line
         * @throws IOException if it fails or is refused
         */
        void expectOk(String command) throws IOException;
    }

    private final GsiClientSecurity gsi;
    private final DataChannels plain;
    private final boolean serverHasDcau;
    private DataChannelAuthentication serverDcau;
    private ProtectionLevel serverProtection = ProtectionLevel.CLEAR;
    private boolean pbszSent;
    private DataChannels secured; // for the server's current DCAU A/S and PROT; null when they changed
    private ProtectionLevel floor = ProtectionLevel.CLEAR; // the least every data channel gets

    /**
     * @param gsi           the session's credential and trust, or null for a session without GSI
     * @param plain         the client's data channels (DCAU N)
     * @param serverHasDcau whether FEAT listed DCAU (then DCAU A is in force after a GSI login)
     */
    ClientDataProtection(GsiClientSecurity gsi, DataChannels plain, boolean serverHasDcau) {
        this.gsi = gsi;
        this.plain = Objects.requireNonNull(plain, "plain");
        this.serverHasDcau = serverHasDcau;
        this.serverDcau =
                gsi != null && serverHasDcau ? DataChannelAuthentication.SELF : DataChannelAuthentication.NONE;
    }

    /** @return true when the server's FEAT listed DCAU */
    boolean serverHasDcau() {
        return serverHasDcau;
    }

    /**
     * @return the GSI identity the server's data channels present (its delegated credential is ours),
     *     or null when they are not authenticated (clear-text session or no DCAU)
     */
    String dataChannelIdentity() {
        return gsi != null && serverHasDcau ? gsi.credential().identity() : null;
    }

    /**
     * Sets the least protection of every later data channel, whatever a transfer's options ask.
     *
     * @param level C, S or P
     * @throws IOException if the session cannot protect data channels at that level: no GSI
     *     ({@code ftp://}), or a server without DCAU
     */
    void require(ProtectionLevel level) throws IOException {
        if (level != ProtectionLevel.CLEAR) {
            if (gsi == null) {
                throw new IOException("PROT " + level.code()
                        + " needs a gsiftp:// session with a GSI credential; this one is clear text");
            }
            if (!serverHasDcau) {
                throw new IOException("PROT " + level.code()
                        + " needs data channel authentication, and the server does not list DCAU in FEAT");
            }
        }
        floor = level;
    }

    /** @return the least protection of every data channel */
    ProtectionLevel floor() {
        return floor;
    }

    /**
     * Brings the server to the DCAU and PROT {@code options} ask for and returns the data channels
     * the transfer must use.
     *
     * @param options  the transfer's options (null DCAU/PROT: the defaults above)
     * @param commands sends commands on the session's control channel
     * @return plain data channels under DCAU N, secured ones otherwise; the same object as last
     *     time exactly when the server's settings did not change (so cached connections stay valid)
     * @throws IOException if the server refuses, or the options need GSI the session does not have
     */
    DataChannels apply(TransferOptions options, Commands commands) throws IOException {
        DataChannelAuthentication dcau = options.dataChannelAuthentication() != null
                ? options.dataChannelAuthentication()
                : gsi != null && serverHasDcau ? DataChannelAuthentication.SELF : DataChannelAuthentication.NONE;
        ProtectionLevel protection = options.protection() != null ? options.protection() : ProtectionLevel.CLEAR;
        if (protection.compareTo(floor) < 0) {
            protection = floor;
        }
        if (floor != ProtectionLevel.CLEAR && !dcau.authenticates()) {
            throw new IOException(
                    "this session protects every data channel (PROT " + floor.code() + "), which DCAU N would not");
        }
        if (dcau.authenticates() && gsi == null) {
            throw new IOException("DCAU " + dcau.letter() + " needs a gsiftp:// session with a GSI credential");
        }
        if (!dcau.authenticates() && protection != ProtectionLevel.CLEAR) {
            throw new IOException("PROT " + protection.code() + " needs DCAU A or S, not N");
        }
        if (gsi == null) {
            return plain; // a clear-text session: no DCAU commands at all
        }
        if (!dcau.equals(serverDcau)) {
            commands.expectOk("DCAU " + dcau.argument());
            serverDcau = dcau;
            secured = null;
        }
        if (!dcau.authenticates()) {
            return plain;
        }
        if (protection != serverProtection) {
            if (!pbszSent) {
                commands.expectOk("PBSZ " + PROTECTION_BUFFER_BYTES);
                pbszSent = true;
            }
            commands.expectOk("PROT " + protection.code());
            serverProtection = protection;
            secured = null;
        }
        if (secured == null) {
            try {
                secured = plain.secured(
                        new DataChannelSecurity(gsi.credential(), gsi.validator(), gsi.trustStore(), dcau, protection));
            } catch (GsiContextException e) {
                throw new IOException("cannot set up data channel security: " + e.getMessage(), e);
            }
        }
        return secured;
    }
}
