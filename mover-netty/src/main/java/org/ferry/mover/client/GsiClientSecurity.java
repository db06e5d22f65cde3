package org.ferry.mover.client;

import java.time.Duration;
import java.util.Objects;
import org.ferry.gsi.context.DelegationMode;
import org.ferry.gsi.context.GsiContextException;
import org.ferry.gsi.context.GsiSecurityContext;
import org.ferry.gsi.context.SecurityContext;
import org.ferry.gsi.credential.GsiCredential;
import org.ferry.gsi.name.DistinguishedNames;
import org.ferry.gsi.trust.ChainValidator;
import org.ferry.gsi.trust.TrustStore;

/**
 * What the client needs for {@code gsiftp://} (RFC 2228 section 3 (AUTH, ADAT) with the GSI mechanism; as the Globus tools behave): the user's
 * credential (usually a proxy), trust, what to delegate, and optionally the server's expected
 * subject ({@code globus-url-copy -ss}); without one the GSI host rule applies ({@code host/<host>}).
 *
 * @param credential        the user's credential
 * @param validator         validates the server's chain
 * @param trustStore        CA certificates
 * @param delegation        {@link DelegationMode#LIMITED} as globus-url-copy; delegate whenever the
 *                          server will authenticate data channels (DCAU A)
 * @param delegatedLifetime lifetime of the delegated proxy (capped by the credential's own)
 * @param serverSubject     oneline DN the server must have, or null for the host rule
 */
public record GsiClientSecurity(
        GsiCredential credential,
        ChainValidator validator,
        TrustStore trustStore,
        DelegationMode delegation,
        Duration delegatedLifetime,
        String serverSubject) {

    /** @throws NullPointerException if a required component is null */
    public GsiClientSecurity {
        Objects.requireNonNull(credential, "credential");
        Objects.requireNonNull(validator, "validator");
        Objects.requireNonNull(trustStore, "trustStore");
        Objects.requireNonNull(delegation, "delegation");
        Objects.requireNonNull(delegatedLifetime, "delegatedLifetime");
    }

    /**
     * @param credential the user's proxy
     * @param validator  validator
     * @param trustStore trust anchors
     * @return settings that delegate a limited 12-hour proxy and check the host name
     */
    public static GsiClientSecurity of(GsiCredential credential, ChainValidator validator, TrustStore trustStore) {
        return new GsiClientSecurity(
                credential, validator, trustStore, DelegationMode.LIMITED, Duration.ofHours(12), null);
    }

    /**
     * @param host server host from the URL
     * @param port server port
     * @return a new initiator context
     * @throws GsiContextException if TLS cannot be set up
     */
    SecurityContext newInitiator(String host, int port) throws GsiContextException {
        return GsiSecurityContext.initiator(
                credential,
                validator,
                trustStore,
                host,
                port,
                serverSubject == null ? null : chain -> DistinguishedNames.sameDn(chain.identity(), serverSubject),
                delegation,
                delegatedLifetime);
    }
}
