package org.ferry.api.service;

import java.util.Optional;
import org.ferry.api.connect.ConnectRelay;
import org.ferry.api.domain.Endpoint;
import org.ferry.api.error.InvalidRequestException;
import org.ferry.api.error.NotSupportedException;
import org.ferry.api.identity.Caller;
import org.ferry.mover.connect.relay.AgentPresence;
import org.springframework.stereotype.Service;

/**
 * Personal endpoints (Ferry Connect; Globus Connect Personal in seed 000): created by their owner,
 * served by an agent on the owner's machine that dials out to this server's relay
 * ({@link ConnectRelay}). Creating one makes its agent's record and one-time setup key, shown to
 * the owner once; the endpoint is private to its owner, so only the owner's tasks reach the agent.
 * Revoking it revokes the agent's certificate and cuts it off at once.
 */
@Service
public class PersonalEndpoints {

    private final EndpointService endpoints;
    private final ConnectRelay relay;

    /**
     * @param endpoints the endpoint registry
     * @param relay the relay agents dial out to
     */
    public PersonalEndpoints(EndpointService endpoints, ConnectRelay relay) {
        this.endpoints = endpoints;
        this.relay = relay;
    }

    /**
     * A new personal endpoint and the setup key of its agent.
     *
     * @param endpoint the stored endpoint
     * @param setupKey the key for {@code ferry-connect setup}: shown once, never stored in clear
     */
    public record Created(Endpoint endpoint, ConnectRelay.NewAgent setupKey) {}

    /**
     * Creates a personal endpoint.
     *
     * @param caller the owner to be
     * @param canonicalName {@code caller#name}, or null when {@code displayName} names it
     * @param displayName the name part, or null
     * @param description free text or null
     * @return the endpoint and its setup key
     * @throws NotSupportedException naming {@code is_globus_connect} if this server runs no relay
     * @throws InvalidRequestException naming the field of a bad name or description
     * @throws org.ferry.api.error.ConflictException naming {@code display_name} if the name is taken
     */
    public Created create(Caller caller, String canonicalName, String displayName, String description) {
        if (!relay.enabled()) {
            throw new NotSupportedException(
                    "is_globus_connect",
                    "This server runs no Ferry Connect relay, so it has no personal endpoints"
                            + " (its administrator sets ferry.connect.listen=HOST:PORT)");
        }
        String name = displayName;
        if (canonicalName != null) {
            int hash = canonicalName.indexOf('#');
            if (hash <= 0 || !caller.owns(canonicalName.substring(0, hash))) {
                throw new InvalidRequestException(
                        "canonical_name", "canonical_name must be " + caller.name() + "#NAME (your user name first)");
            }
            name = canonicalName.substring(hash + 1);
            if (displayName != null && !displayName.equals(name)) {
                throw new InvalidRequestException(
                        "display_name", "display_name must be the name part of canonical_name");
            }
        }
        if (name == null) {
            throw new InvalidRequestException("canonical_name", "canonical_name (owner#name) is required");
        }
        // checked before the agent is made: its record takes one of the relay's control ports for good
        endpoints.checkPersonal(caller, name, description);
        ConnectRelay.NewAgent agent = relay.newAgent();
        Endpoint endpoint = endpoints.createPersonal(
                caller,
                name,
                description,
                "gsiftp://" + agent.controlHost() + ":" + agent.controlPort(),
                agent.subject(),
                agent.agentId());
        return new Created(endpoint, agent);
    }

    /**
     * Revokes a personal endpoint's agent: cut off at once, its certificate revoked (refused from
     * now on by the relay and by movers, which read the CA's CRL). Its tasks fail.
     *
     * @param caller the owner
     * @param idOrName the endpoint
     * @return the endpoint
     */
    public Endpoint revoke(Caller caller, String idOrName) {
        Endpoint endpoint = endpoints.markRevoked(caller, idOrName);
        if (relay.enabled()) {
            relay.revoke(endpoint.getConnectAgentId());
        }
        return endpoint;
    }

    /**
     * Deletes an endpoint; a personal one's agent is revoked first, so it cannot stay reachable.
     *
     * @param caller the owner
     * @param idOrName the endpoint
     */
    public void delete(Caller caller, String idOrName) {
        Endpoint found = endpoints.resolveOwned(caller, idOrName);
        if (found.isPersonal() && !found.isConnectRevoked()) {
            revoke(caller, idOrName);
        }
        endpoints.delete(caller, idOrName);
    }

    /**
     * @param endpoint an endpoint
     * @return its agent's presence while it is connected (empty for a server endpoint)
     */
    public Optional<AgentPresence> presence(Endpoint endpoint) {
        return endpoint.isPersonal() && !endpoint.isConnectRevoked()
                ? relay.presence(endpoint.getConnectAgentId())
                : Optional.empty();
    }

    /**
     * @param endpoint an endpoint
     * @return false only for a personal endpoint whose agent is not connected now
     */
    public boolean reachable(Endpoint endpoint) {
        return !endpoint.isPersonal() || presence(endpoint).isPresent();
    }
}
