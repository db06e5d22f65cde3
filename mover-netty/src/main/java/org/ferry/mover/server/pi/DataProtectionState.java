package org.ferry.mover.server.pi;

import java.util.Optional;
import org.ferry.gsi.context.GsiContextException;
import org.ferry.gsi.context.SecurityContext;
import org.ferry.gsi.credential.GsiCredential;
import org.ferry.mover.data.security.DataChannelAuthentication;
import org.ferry.mover.data.security.DataChannelSecurity;
import org.ferry.mover.data.security.ProtectionLevel;

/**
 * One session's data channel security settings (DCAU, PROT, PBSZ; GFD.020 "DCAU", RFC 2228 section 3 (PROT, PBSZ)): DCAU
 * defaults to A after a GSI login with delegation and to N otherwise; PROT to C. Held by the
 * session ({@link ControlSession#dataProtection()}). The DCAU A/S credential is the session's delegated one
 * (reference 4.5: globus uses {@code del_cred}). Used from the session's command worker.
 */
public final class DataProtectionState {

    private DataChannelAuthentication dcau; // null: the default
    private ProtectionLevel protection = ProtectionLevel.CLEAR;
    private long bufferSizeBytes;
    private DataChannelSecurity built;

    /** @return the delegated credential of the session's GSI login, if any */
    static Optional<GsiCredential> delegated(ControlSession session) {
        SecurityContext context = session.securityContext();
        if (context == null || !context.established()) {
            return Optional.empty();
        }
        return context.delegatedCredential();
    }

    /**
     * @param session the session
     * @return the DCAU in force: the one set, else A after a GSI login with delegation, else N
     */
    public synchronized DataChannelAuthentication dcau(ControlSession session) {
        if (dcau != null) {
            return dcau;
        }
        return delegated(session).isPresent() ? DataChannelAuthentication.SELF : DataChannelAuthentication.NONE;
    }

    /** @param value the DCAU the client asked for */
    public synchronized void dcau(DataChannelAuthentication value) {
        dcau = value;
        built = null;
    }

    /** @return the PROT level (C until set) */
    public synchronized ProtectionLevel protection() {
        return protection;
    }

    /** @param value the PROT level the client asked for */
    public synchronized void protection(ProtectionLevel value) {
        protection = value;
        built = null;
    }

    /** @return the PBSZ value in bytes, 0 until set (informational: TLS records are self-delimiting) */
    public synchronized long bufferSizeBytes() {
        return bufferSizeBytes;
    }

    /** @param value the PBSZ value in bytes */
    public synchronized void bufferSizeBytes(long value) {
        bufferSizeBytes = value;
    }

    /**
     * @param session the session (GSI context and settings)
     * @return the security for the next transfer's data connections, or null under DCAU N
     * @throws IllegalStateException if DCAU A/S is in force without a delegated credential, or TLS
     *     cannot be set up with it
     */
    public synchronized DataChannelSecurity security(ControlSession session) {
        DataChannelAuthentication mode = dcau(session);
        if (!mode.authenticates()) {
            return null;
        }
        if (built == null) {
            GsiCredential credential = delegated(session)
                    .orElseThrow(
                            () -> new IllegalStateException("DCAU " + mode.letter() + " needs a delegated credential"));
            GsiServerSecurity gsi = session.gsi();
            try {
                built = new DataChannelSecurity(credential, gsi.validator(), gsi.trustStore(), mode, protection);
            } catch (GsiContextException e) {
                throw new IllegalStateException(e.getMessage(), e);
            }
        }
        return built;
    }
}
