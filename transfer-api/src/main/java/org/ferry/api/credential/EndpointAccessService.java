package org.ferry.api.credential;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.ferry.api.connect.ConnectRelay;
import org.ferry.api.domain.Endpoint;
import org.ferry.api.domain.EndpointCredential;
import org.ferry.api.domain.UserTrustRoot;
import org.ferry.api.repository.EndpointCredentialRepository;
import org.ferry.api.repository.UserTrustRootRepository;
import org.ferry.gsi.trust.TrustRoots;
import org.ferry.mover.access.EndpointAccess;
import org.ferry.mover.access.EndpointSessions;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * What a user's sessions to an endpoint need, from what is stored: for {@code ftp://} the sealed
 * password; for {@code gsiftp://} the credential the user activated the endpoint with (sealed) and
 * the trust roots the user bootstrapped; for {@code sshftp://} the endpoint's stored key, or, on
 * one made without a key, the SSH login and key the user activated it with. The result is an {@link EndpointAccess}: plain values
 * that the planner, the listing and a mover open with {@link EndpointSessions}.
 */
@Service
public class EndpointAccessService {

    private final EndpointCredentialRepository credentials;
    private final UserTrustRootRepository trustRoots;
    private final EndpointServerRows servers;
    private final Clock clock;
    private final ConnectRelay connect;
    private final EndpointSecrets secrets;

    /**
     * @param credentials activated credentials
     * @param trustRoots bootstrapped trust roots
     * @param servers the endpoints' GridFTP servers
     * @param clock what "now" is
     * @param connect the Ferry Connect relay (personal endpoints' agents)
     * @param secrets seals the movers' credential for personal endpoints
     */
    public EndpointAccessService(
            EndpointCredentialRepository credentials,
            UserTrustRootRepository trustRoots,
            EndpointServerRows servers,
            Clock clock,
            ConnectRelay connect,
            EndpointSecrets secrets) {
        this.connect = connect;
        this.secrets = secrets;
        this.credentials = credentials;
        this.trustRoots = trustRoots;
        this.servers = servers;
        this.clock = clock;
    }

    /**
     * @param endpoint an endpoint
     * @return its servers as {@link EndpointAccess} lists them, in the order they are tried
     */
    @Transactional(readOnly = true)
    public List<EndpointAccess.Server> servers(Endpoint endpoint) {
        return servers.accessServers(endpoint);
    }

    /**
     * @param user the user whose sessions these are (the task owner, the caller of {@code ls})
     * @param endpoint the endpoint
     * @return how to log in
     * @throws ActivationRequiredException if a {@code gsiftp://} endpoint, or an {@code sshftp://}
     *     one without a stored key, has no credential of the user's that is still valid
     */
    @Transactional(readOnly = true)
    public EndpointAccess access(String user, Endpoint endpoint) throws ActivationRequiredException {
        if (endpoint.isSsh() && endpoint.needsActivation()) {
            // the user's own SSH login and key, trusting the host key pinned at the endpoint's creation
            EndpointCredential credential = usableCredential(user, endpoint);
            return new EndpointAccess(
                    endpoint.getCanonicalName(),
                    servers(endpoint),
                    credential.getSshLogin(),
                    credential.getSealedCredential(),
                    EndpointSecrets.credentialContext(credential.getId()),
                    Map.of());
        }
        if (!endpoint.isGsi()) {
            String id = endpoint.getId().toString();
            return new EndpointAccess(
                    endpoint.getCanonicalName(),
                    servers(endpoint),
                    endpoint.getUsername(),
                    endpoint.getSealedPassword(),
                    endpoint.getSealedPassword() == null ? null : EndpointSecrets.passwordContext(id),
                    Map.of());
        }
        if (endpoint.isPersonal()) {
            // a personal endpoint's agent lets in the service's movers (its grid-mapfile), not
            // users: the movers' credential from the relay's CA, and that CA (with its CRL) trusted
            String context = EndpointSecrets.connectContext(endpoint.getId());
            return new EndpointAccess(
                    endpoint.getCanonicalName(),
                    servers(endpoint),
                    null,
                    secrets.seal(connect.moverCredentialPem(), context),
                    context,
                    EndpointSessions.encode(connect.trustRoots()));
        }
        EndpointCredential credential = usableCredential(user, endpoint);
        String username = endpoint.getUsername();
        return new EndpointAccess(
                endpoint.getCanonicalName(),
                servers(endpoint),
                username == null || username.isEmpty() || username.equals("anonymous") ? null : username,
                credential.getSealedCredential(),
                EndpointSecrets.credentialContext(credential.getId()),
                EndpointSessions.encode(trustRoots(user)));
    }

    /**
     * @param user a user
     * @param endpoint an endpoint
     * @return whether the user can use it now, with the credential's end and identity
     */
    @Transactional(readOnly = true)
    public ActivationStatus status(String user, Endpoint endpoint) {
        if (!endpoint.needsActivation()) {
            return ActivationStatus.NOT_NEEDED;
        }
        Optional<EndpointCredential> credential = credentials.findByEndpointIdAndOwnerName(endpoint.getId(), user);
        if (credential.isEmpty() || !isUsable(credential.get())) {
            return new ActivationStatus(true, false, null, null);
        }
        return new ActivationStatus(
                true, true, credential.get().getNotAfter(), credential.get().getSubject());
    }

    /**
     * @param user a user
     * @param endpoint a {@code gsiftp://} endpoint
     * @return the user's credential for it
     * @throws ActivationRequiredException if there is none or it expired
     */
    @Transactional(readOnly = true)
    public EndpointCredential usableCredential(String user, Endpoint endpoint) throws ActivationRequiredException {
        String name = endpoint.getCanonicalName();
        EndpointCredential credential = credentials
                .findByEndpointIdAndOwnerName(endpoint.getId(), user)
                .orElseThrow(() -> new ActivationRequiredException(
                        name,
                        "Endpoint " + name + " is not activated: activate it with a credential of yours ("
                                + activateHint(endpoint) + ")"));
        if (!isUsable(credential)) {
            throw new ActivationRequiredException(
                    name,
                    "The credential that activated endpoint " + name + " (" + credential.getSubject() + ") expired at "
                            + credential.getNotAfter() + ": activate it again (" + activateHint(endpoint) + ")");
        }
        return credential;
    }

    /** @return true while the credential has more than the mover's expiry margin left */
    boolean isUsable(EndpointCredential credential) {
        return clock.instant().plus(EndpointSessions.EXPIRY_MARGIN).isBefore(credential.getNotAfter());
    }

    /**
     * @param user a user
     * @return the trust directory files the user bootstrapped
     */
    @Transactional(readOnly = true)
    public TrustRoots trustRoots(String user) {
        Map<String, byte[]> files = new TreeMap<>();
        for (UserTrustRoot root : trustRoots.findByOwnerNameOrderByFileName(user)) {
            files.put(root.getFileName(), root.getContent().getBytes(StandardCharsets.ISO_8859_1));
        }
        return TrustRoots.of(files);
    }

    /** @return what the user types to activate an endpoint */
    public static String activateHint(String endpoint) {
        return "ferry endpoint activate " + endpoint + " --myproxy ... or --delegate-proxy";
    }

    /** @return what the user types to activate the endpoint, by its kind */
    public static String activateHint(Endpoint endpoint) {
        return endpoint.isSsh()
                ? "ferry endpoint activate " + endpoint.getCanonicalName() + " --ssh-key FILE [--ssh-user LOGIN]"
                : activateHint(endpoint.getCanonicalName());
    }

    /** @return the current time of this service's clock */
    public Instant now() {
        return clock.instant();
    }
}
