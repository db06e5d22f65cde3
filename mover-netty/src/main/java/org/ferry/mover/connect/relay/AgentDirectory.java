package org.ferry.mover.connect.relay;

import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.PublicKey;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.bouncycastle.pkcs.PKCS10CertificationRequest;
import org.ferry.gsi.ca.SetupKeyException;

/**
 * The relay's port to whatever knows the agents (a directory over the online CA for the stand-alone
 * relay, {@link CaAgentDirectory}; the service's endpoint table inside ferry-server): it pairs an
 * agent once, says which key may connect as which agent and on which control port, and hears who
 * is connected.
 */
public interface AgentDirectory {

    /**
     * What a pairing gives the agent.
     *
     * @param agentId the agent's id
     * @param certificate its certificate from the online CA
     * @param trustFiles the trust directory it validates logins against: file name to content
     * @param allowedSubjects the DNs that may log in to it (the service's movers)
     * @param controlPort its control channel's port on the relay
     */
    record Pairing(
            String agentId,
            X509Certificate certificate,
            Map<String, String> trustFiles,
            List<String> allowedSubjects,
            int controlPort) {}

    /**
     * Redeems a setup key for the key of a certificate request.
     *
     * @param setupSecret the key's secret
     * @param csr the agent's request (its key made on its machine)
     * @return the pairing
     * @throws SetupKeyException UNKNOWN, USED or EXPIRED
     * @throws GeneralSecurityException if the request is not valid
     * @throws IOException if the directory cannot be read or written
     */
    Pairing pair(String setupSecret, PKCS10CertificationRequest csr) throws GeneralSecurityException, IOException;

    /**
     * @param agentId the SSH user name an agent connects as
     * @param key the public key it proved it holds
     * @return its control port when the key is its current, unrevoked certificate's; empty to refuse
     * @throws IOException if the directory cannot be read
     */
    OptionalInt controlPort(String agentId, PublicKey key) throws IOException;

    /**
     * An agent has connected (and said hello, or not yet).
     *
     * @param presence what is known of it
     */
    default void connected(AgentPresence presence) {}

    /**
     * An agent's connection has ended.
     *
     * @param agentId its id
     */
    default void disconnected(String agentId) {}
}
