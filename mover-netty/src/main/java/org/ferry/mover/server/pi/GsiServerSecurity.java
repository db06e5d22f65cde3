package org.ferry.mover.server.pi;

import java.util.Objects;
import org.ferry.gsi.context.GsiContextException;
import org.ferry.gsi.context.GsiSecurityContext;
import org.ferry.gsi.context.SecurityContext;
import org.ferry.gsi.credential.GsiCredential;
import org.ferry.gsi.gridmap.GridMapAuthorizer;
import org.ferry.gsi.trust.ChainValidator;
import org.ferry.gsi.trust.TrustStore;

/**
 * What the server needs for {@code AUTH GSSAPI} (RFC 2228 with the GSI mechanism,
 * RFC 2228 section 3 (AUTH, ADAT) with the GSI mechanism; the Globus grid-mapfile format): its host credential, the validator and trust store for client
 * chains, and the grid-mapfile authorizer for {@code USER :globus-mapping:}/{@code PASS}.
 * The GSI mechanism itself lives in gsi-security behind {@link SecurityContext}.
 *
 * @param hostCredential the server's host or service credential ({@code host/<fqdn>})
 * @param validator      validates client chains (limited proxies are accepted, as globus does)
 * @param trustStore     CA certificates
 * @param authorizer     maps the client's identity to a local user
 */
public record GsiServerSecurity(
        GsiCredential hostCredential, ChainValidator validator, TrustStore trustStore, GridMapAuthorizer authorizer) {

    /** @throws NullPointerException if a component is null */
    public GsiServerSecurity {
        Objects.requireNonNull(hostCredential, "hostCredential");
        Objects.requireNonNull(validator, "validator");
        Objects.requireNonNull(trustStore, "trustStore");
        Objects.requireNonNull(authorizer, "authorizer");
    }

    /**
     * @return a new acceptor context for one control channel
     * @throws GsiContextException if TLS cannot be set up
     */
    public SecurityContext newAcceptor() throws GsiContextException {
        return GsiSecurityContext.acceptor(hostCredential, validator, trustStore);
    }
}
