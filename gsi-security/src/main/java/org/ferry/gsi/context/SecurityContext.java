package org.ferry.gsi.context;

import java.util.Optional;
import org.ferry.gsi.credential.GsiCredential;
import org.ferry.gsi.trust.ValidatedChain;

/**
 * One side of an authenticated, protected control channel, driven by tokens (RFC 2228 section 3;
 * RFC 2743's init/accept_sec_context, wrap and unwrap). The GridFTP server puts the base64 of each
 * output token in {@code 335 ADAT=} / {@code 235 ADAT=}; the client sends it in {@code ADAT}.
 *
 * <p>Not thread-safe: a control channel drives its context from one thread at a time.
 */
public interface SecurityContext {

    /**
     * Consumes one token from the peer and produces the next one.
     *
     * @param input the peer's token; null or empty for the initiator's first call
     * @return the token to send, or null when there is nothing to send (for the acceptor: reply
     *         {@code 235} without ADAT data when {@link #established()})
     * @throws GsiContextException if authentication fails (message for the user, e.g. the
     *                             certificate validation error) or the peer breaks the protocol
     */
    byte[] step(byte[] input) throws GsiContextException;

    /** @return true once authentication (and delegation, if any) is complete */
    boolean established();

    /**
     * Protects a message (a command line with CRLF, or one reply line with CRLF).
     *
     * @param plain the message
     * @return the token to base64 into {@code ENC}/{@code MIC} or {@code 632}/{@code 631}
     * @throws GsiContextException if the context is not established or TLS fails
     */
    byte[] wrap(byte[] plain) throws GsiContextException;

    /**
     * Verifies and decrypts a token from the peer.
     *
     * @param token the decoded base64 of a MIC/ENC command or 631/632 reply: whole TLS records
     * @return the message
     * @throws GsiContextException if the token is forged, replayed, truncated or malformed; for a
     *                             forged or replayed one the TLS session has failed and the context
     *                             can protect nothing more (RFC 2228 section 5.3: reply 535)
     */
    byte[] unwrap(byte[] token) throws GsiContextException;

    /** @return true when wrapped messages are encrypted (send ENC/632), false for integrity only (MIC/631) */
    boolean confidential();

    /**
     * @return the peer's validated chain and identity
     * @throws IllegalStateException before the handshake has completed
     */
    ValidatedChain peer();

    /** @return the credential the peer delegated to us (acceptor side), if it delegated */
    Optional<GsiCredential> delegatedCredential();
}
