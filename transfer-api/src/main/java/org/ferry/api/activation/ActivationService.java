package org.ferry.api.activation;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.ferry.api.credential.ActivationStatus;
import org.ferry.api.credential.EndpointAccessService;
import org.ferry.api.credential.EndpointSecrets;
import org.ferry.api.document.ActivationRequirementsDocument;
import org.ferry.api.domain.Endpoint;
import org.ferry.api.domain.EndpointCredential;
import org.ferry.api.domain.UserTrustRoot;
import org.ferry.api.error.ActivationFailedException;
import org.ferry.api.error.ConflictException;
import org.ferry.api.error.InvalidRequestException;
import org.ferry.api.lifecycle.EndpointActivatedEvent;
import org.ferry.api.lifecycle.EndpointDeactivatedEvent;
import org.ferry.api.repository.EndpointCredentialRepository;
import org.ferry.api.repository.UserTrustRootRepository;
import org.ferry.gsi.credential.GsiCredential;
import org.ferry.gsi.credential.PemFiles;
import org.ferry.gsi.myproxy.MyProxyClient;
import org.ferry.gsi.trust.TrustRoots;
import org.ferry.mover.access.EndpointSessions;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Endpoint activation with the Globus Transfer API v0.10 documents (service-semantics b.1, b.9):
 * {@code activation_requirements}, {@code activate} (MyProxy or a delegated proxy),
 * {@code autoactivate} and {@code deactivate}. Each user activates a {@code gsiftp://} endpoint
 * with a credential of their own, and an {@code sshftp://} endpoint made without a key with an SSH
 * key of their own ({@link SshKeyActivation}); the service keeps only that credential, sealed,
 * until it expires or the user deactivates. A MyProxy or SSH key passphrase is used for one request
 * and never stored. Endpoints that need no activation ({@code ftp://}) answer as always activated.
 */
@Service
public class ActivationService {

    /** Code of a deactivation of an endpoint that holds no credential of the caller's (409). */
    public static final String NOT_ACTIVATED = "ClientError.Conflict.NotActivated";

    /** MyProxy requirement names. */
    static final String HOSTNAME = "hostname";

    static final String USERNAME = "username";
    static final String PASSPHRASE = "passphrase";
    static final String SERVER_DN = "server_dn";
    static final String LIFETIME = "lifetime_in_hours";
    static final String BOOTSTRAP_TRUST = "bootstrap_trust";
    /** Delegate-proxy requirement names. */
    static final String PUBLIC_KEY = "public_key";

    static final String PROXY_CHAIN = "proxy_chain";

    static final String MYPROXY = "myproxy";
    static final String DELEGATE_PROXY = "delegate_proxy";
    private static final int DEFAULT_LIFETIME_HOURS = 12;
    private static final int MAX_LIFETIME_HOURS = 24 * 14;

    private final EndpointAccessService access;
    private final EndpointCredentialRepository credentials;
    private final UserTrustRootRepository trustRoots;
    private final MyProxyActivation myProxy;
    private final DelegatedProxyActivation delegation;
    private final CredentialCheck check;
    private final SshKeyActivation sshKeys;
    private final EndpointSecrets secrets;
    private final ApplicationEventPublisher publisher;
    private final TransactionTemplate transactions;
    private final Clock clock;

    /**
     * @param access activation status and trust roots
     * @param credentials activated credentials
     * @param trustRoots bootstrapped trust roots
     * @param myProxy MyProxy retrieval
     * @param delegation delegate-proxy key pairs
     * @param check the login check before a credential is kept
     * @param sshKeys SSH-key activation of sshftp:// endpoints
     * @param secrets seals credentials
     * @param publisher where activation events go (the scheduler resumes or stops tasks)
     * @param transactions short transactions around the writes (no network I/O inside)
     * @param clock what "now" is
     */
    public ActivationService(
            EndpointAccessService access,
            EndpointCredentialRepository credentials,
            UserTrustRootRepository trustRoots,
            MyProxyActivation myProxy,
            DelegatedProxyActivation delegation,
            CredentialCheck check,
            SshKeyActivation sshKeys,
            EndpointSecrets secrets,
            ApplicationEventPublisher publisher,
            TransactionTemplate transactions,
            Clock clock) {
        this.access = access;
        this.credentials = credentials;
        this.trustRoots = trustRoots;
        this.myProxy = myProxy;
        this.delegation = delegation;
        this.check = check;
        this.sshKeys = sshKeys;
        this.secrets = secrets;
        this.publisher = publisher;
        this.transactions = transactions;
        this.clock = clock;
    }

    /**
     * What activating the endpoint takes: the MyProxy fields (the endpoint's MyProxy server filled
     * in when it has one) and the delegate-proxy fields (a public key made for this user and
     * endpoint); none for an endpoint that needs no activation.
     *
     * @param user the user
     * @param endpoint the endpoint
     * @return the status and the requirements
     */
    public ActivationResult requirements(String user, Endpoint endpoint) {
        ActivationStatus status = access.status(user, endpoint);
        if (!status.needsActivation()) {
            return new ActivationResult("NotNeeded", "Endpoint needs no activation", status, List.of());
        }
        return new ActivationResult("Requirements", "Activation requirements", status, requirementList(user, endpoint));
    }

    private List<ActivationRequirement> requirementList(String user, Endpoint endpoint) {
        if (endpoint.isSsh()) {
            return sshKeys.requirements(endpoint);
        }
        List<ActivationRequirement> list = new ArrayList<>();
        list.add(new ActivationRequirement(
                MYPROXY,
                HOSTNAME,
                endpoint.getMyProxyServer(),
                true,
                false,
                "MyProxy Server",
                "The MyProxy server to request a credential from: host or host:port (port 7512 by default)."));
        list.add(new ActivationRequirement(
                MYPROXY,
                USERNAME,
                null,
                true,
                false,
                "Username",
                "The username of your credential on the MyProxy server."));
        list.add(new ActivationRequirement(
                MYPROXY,
                PASSPHRASE,
                null,
                true,
                true,
                "Passphrase",
                "The passphrase of your credential on the MyProxy server; used once, never stored."));
        list.add(new ActivationRequirement(
                MYPROXY,
                SERVER_DN,
                endpoint.getMyProxyDn(),
                false,
                false,
                "Server DN",
                "The distinguished name of the MyProxy server, '/'-separated; only needed when it is not"
                        + " host/<hostname>."));
        list.add(new ActivationRequirement(
                MYPROXY,
                LIFETIME,
                null,
                false,
                false,
                "Credential Lifetime (hours)",
                "The lifetime of the credential to request, in hours (default " + DEFAULT_LIFETIME_HOURS
                        + "); the MyProxy server may give less."));
        list.add(new ActivationRequirement(
                MYPROXY,
                BOOTSTRAP_TRUST,
                "false",
                false,
                false,
                "Bootstrap Trust",
                "true to trust the MyProxy server's CA on first use and keep its trust roots for your sessions,"
                        + " as myproxy-logon -b does."));
        list.add(new ActivationRequirement(
                DELEGATE_PROXY,
                PUBLIC_KEY,
                delegation.publicKey(endpoint, user),
                false,
                false,
                "Server Public Key",
                "The public key, PEM, to put in a proxy certificate you sign with your own credential."));
        list.add(new ActivationRequirement(
                DELEGATE_PROXY,
                PROXY_CHAIN,
                null,
                true,
                false,
                "Proxy Chain",
                "A proxy certificate for the public key, PEM, followed by the certificate chain of the"
                        + " credential that signed it (certificates only)."));
        return list;
    }

    /**
     * Activates with the filled-in requirements document.
     *
     * @param user the user
     * @param endpoint the endpoint
     * @param document an {@code activation_requirements} document whose MyProxy fields (hostname,
     *     username, passphrase) or delegate-proxy field ({@code proxy_chain}) are filled in
     * @return {@code Activated.MyProxyCredential}, {@code Activated.DelegatedProxy} or
     *     {@code Activated.SshKey} (filled {@code ssh_key} requirements), with the new
     *     status; {@code AlreadyActivated} for an endpoint that needs no activation
     * @throws org.ferry.api.error.FerryException 400 naming the field for a malformed document; 400
     *     {@code ClientError.ActivationFailed} ({@link ActivationFailedException}) with the reason for a refused activation; 502 when
     *     the MyProxy server cannot be reached
     */
    public ActivationResult activate(String user, Endpoint endpoint, ActivationRequirementsDocument document) {
        if (!endpoint.isGsi() && !endpoint.needsActivation()) {
            return new ActivationResult(
                    "AlreadyActivated", "Endpoint needs no activation", ActivationStatus.NOT_NEEDED, List.of());
        }
        FilledRequirements filled = FilledRequirements.of(document);
        if (endpoint.isSsh()) {
            return activateWithSshKey(user, endpoint, filled);
        }
        TrustRoots userRoots = access.trustRoots(user);
        GsiCredential credential;
        TrustRoots newRoots = TrustRoots.EMPTY;
        EndpointCredential.Method method;
        String server = null;
        if (filled.has(MYPROXY, PASSPHRASE) || filled.has(MYPROXY, USERNAME)) {
            MyProxyActivation.Retrieved retrieved = myProxy.retrieve(myProxyRequest(filled, endpoint), userRoots);
            credential = retrieved.credential();
            newRoots = retrieved.newTrustRoots();
            server = retrieved.server();
            method = EndpointCredential.Method.MYPROXY;
        } else if (filled.has(DELEGATE_PROXY, PROXY_CHAIN)) {
            credential = delegation.complete(endpoint, user, filled.get(DELEGATE_PROXY, PROXY_CHAIN), userRoots);
            method = EndpointCredential.Method.DELEGATE_PROXY;
        } else {
            throw new InvalidRequestException(
                    "DATA",
                    "Fill in the myproxy requirements (hostname, username, passphrase) or the delegate_proxy"
                            + " requirement proxy_chain");
        }
        Instant notAfter = credential.notAfter();
        if (!clock.instant().plus(EndpointSessions.EXPIRY_MARGIN).isBefore(notAfter)) {
            throw MyProxyActivation.failed(
                    "The credential of " + credential.identity() + " expired at " + notAfter + " (or expires now)");
        }
        String note = check.check(endpoint, credential, userRoots.plus(newRoots));
        EndpointCredential stored = store(user, endpoint, credential, method, server, newRoots);
        ActivationStatus status = new ActivationStatus(true, true, stored.getNotAfter(), stored.getSubject());
        String how = method == EndpointCredential.Method.MYPROXY
                ? "a credential from MyProxy server " + server
                : "a proxy delegated by your client";
        return new ActivationResult(
                method == EndpointCredential.Method.MYPROXY
                        ? "Activated.MyProxyCredential"
                        : "Activated.DelegatedProxy",
                "Endpoint " + endpoint.getCanonicalName() + " activated with " + how + " for " + stored.getSubject()
                        + " until " + stored.getNotAfter() + (note == null ? "" : "; " + note),
                status,
                List.of());
    }

    /**
     * An {@code sshftp://} endpoint activated with an SSH key of the user's: checked by one login,
     * kept sealed for its lifetime.
     */
    private ActivationResult activateWithSshKey(String user, Endpoint endpoint, FilledRequirements filled) {
        if (!filled.has(SshKeyActivation.SSH_KEY, SshKeyActivation.PRIVATE_KEY)) {
            throw new InvalidRequestException(
                    filled.field(SshKeyActivation.SSH_KEY, SshKeyActivation.PRIVATE_KEY),
                    "Fill in the ssh_key requirements (private_key, and username when the endpoint offers none)");
        }
        SshKeyActivation.Key key = sshKeys.read(endpoint, filled);
        String note = sshKeys.check(endpoint, key);
        Instant notAfter = clock.instant().plus(Duration.ofHours(key.lifetimeHours()));
        EndpointCredential stored = store(
                user,
                endpoint,
                key.text(),
                EndpointCredential.Method.SSH_KEY,
                EndpointCredential.sshSubject(key.login(), key.fingerprint()),
                notAfter,
                null,
                TrustRoots.EMPTY);
        return new ActivationResult(
                "Activated.SshKey",
                "Endpoint " + endpoint.getCanonicalName() + " activated with SSH key " + key.fingerprint()
                        + " as login " + key.login() + " until " + stored.getNotAfter()
                        + (note == null ? "" : "; " + note),
                new ActivationStatus(true, true, stored.getNotAfter(), stored.getSubject()),
                List.of());
    }

    private MyProxyActivation.MyProxyRequest myProxyRequest(FilledRequirements filled, Endpoint endpoint) {
        String hostname = filled.get(MYPROXY, HOSTNAME);
        if (hostname == null || hostname.isBlank()) {
            hostname = endpoint.getMyProxyServer();
        }
        if (hostname == null || hostname.isBlank()) {
            throw new InvalidRequestException(
                    filled.field(MYPROXY, HOSTNAME),
                    "Endpoint " + endpoint.getCanonicalName() + " names no MyProxy server: fill in hostname");
        }
        String host = hostname.strip();
        int port = MyProxyClient.DEFAULT_PORT;
        int colon = host.lastIndexOf(':');
        if (colon > 0 && host.indexOf(']') < colon) {
            try {
                port = Integer.parseInt(host.substring(colon + 1));
            } catch (NumberFormatException e) {
                port = -1;
            }
            host = host.substring(0, colon);
            if (port < 1 || port > 65535) {
                throw new InvalidRequestException(
                        filled.field(MYPROXY, HOSTNAME), "hostname must be host or host:port");
            }
        }
        String username = filled.get(MYPROXY, USERNAME);
        if (username == null || username.isBlank() || username.contains("\n")) {
            throw new InvalidRequestException(filled.field(MYPROXY, USERNAME), "username is required");
        }
        String passphrase = filled.get(MYPROXY, PASSPHRASE);
        if (passphrase == null || passphrase.isEmpty()) {
            throw new InvalidRequestException(filled.field(MYPROXY, PASSPHRASE), "passphrase is required");
        }
        if (passphrase.indexOf('\n') >= 0 || passphrase.indexOf('\0') >= 0) {
            throw new InvalidRequestException(
                    filled.field(MYPROXY, PASSPHRASE), "passphrase must not hold line breaks or NUL characters");
        }
        int hours = filled.hours(MYPROXY, LIFETIME, DEFAULT_LIFETIME_HOURS, MAX_LIFETIME_HOURS);
        String serverDn = filled.get(MYPROXY, SERVER_DN);
        if (serverDn == null || serverDn.isBlank()) {
            serverDn = endpoint.getMyProxyDn();
        }
        String bootstrap = filled.get(MYPROXY, BOOTSTRAP_TRUST);
        if (bootstrap != null && !bootstrap.isBlank() && !bootstrap.equals("true") && !bootstrap.equals("false")) {
            throw new InvalidRequestException(
                    filled.field(MYPROXY, BOOTSTRAP_TRUST), "bootstrap_trust must be true or false");
        }
        return new MyProxyActivation.MyProxyRequest(
                host,
                port,
                username.strip(),
                passphrase.toCharArray(),
                serverDn == null || serverDn.isBlank() ? null : serverDn.strip(),
                hours,
                "true".equals(bootstrap));
    }

    private EndpointCredential store(
            String user,
            Endpoint endpoint,
            GsiCredential credential,
            EndpointCredential.Method method,
            String server,
            TrustRoots newRoots) {
        String pem;
        try {
            pem = PemFiles.credentialPem(credential);
        } catch (IOException e) {
            throw new IllegalStateException("cannot encode the credential: " + e.getMessage(), e);
        }
        return store(user, endpoint, pem, method, credential.identity(), credential.notAfter(), server, newRoots);
    }

    private EndpointCredential store(
            String user,
            Endpoint endpoint,
            String secret,
            EndpointCredential.Method method,
            String subject,
            Instant notAfter,
            String server,
            TrustRoots newRoots) {
        EndpointCredential stored = transactions.execute(tx -> {
            credentials.deleteByEndpointAndOwner(endpoint.getId(), user);
            credentials.flush();
            EndpointCredential row = new EndpointCredential(endpoint.getId(), user, method, subject, notAfter, server);
            row.setSealedCredential(secrets.seal(secret, EndpointSecrets.credentialContext(row.getId())));
            credentials.save(row);
            keepTrustRoots(user, newRoots, "myproxy://" + server);
            publisher.publishEvent(new EndpointActivatedEvent(endpoint.getId(), user));
            return row;
        });
        return stored;
    }

    private void keepTrustRoots(String user, TrustRoots roots, String source) {
        if (roots.isEmpty()) {
            return;
        }
        Map<String, UserTrustRoot> existing = new HashMap<>();
        trustRoots.findByOwnerNameOrderByFileName(user).forEach(r -> existing.put(r.getFileName(), r));
        roots.files().forEach((name, content) -> {
            String text = new String(content, StandardCharsets.ISO_8859_1);
            UserTrustRoot row = existing.get(name);
            if (row == null) {
                trustRoots.save(new UserTrustRoot(user, name, text, source));
            } else {
                row.setContent(text);
                trustRoots.save(row);
            }
        });
    }

    /**
     * Activates from what the service already holds: nothing to do when the endpoint needs no
     * activation or the user's credential lasts longer than {@code ifExpiresIn}; else a credential
     * of the user's from the same MyProxy server, cached for another endpoint, is used again
     * ({@code AutoActivated.CachedCredential}).
     *
     * @param user the user
     * @param endpoint the endpoint
     * @param ifExpiresInSeconds activate only if the credential expires within this many seconds
     * @return {@code AlreadyActivated}, {@code AutoActivated.CachedCredential} or
     *     {@code AutoActivationFailed} (with the requirements of a manual activation)
     */
    public ActivationResult autoactivate(String user, Endpoint endpoint, long ifExpiresInSeconds) {
        ActivationStatus status = access.status(user, endpoint);
        Instant now = clock.instant();
        if (!status.needsActivation()) {
            return new ActivationResult(
                    "AlreadyActivated",
                    "Endpoint " + endpoint.getCanonicalName()
                            + " needs no activation (it logs in with its stored login)",
                    status,
                    List.of());
        }
        if (status.activated() && status.expiresInSeconds(now) > Math.max(0, ifExpiresInSeconds)) {
            return new ActivationResult(
                    "AlreadyActivated",
                    "Endpoint " + endpoint.getCanonicalName() + " is already activated until " + status.expireTime(),
                    status,
                    List.of());
        }
        Optional<EndpointCredential> cached = endpoint.getMyProxyServer() == null
                ? Optional.empty()
                : credentials.findByOwnerName(user).stream()
                        .filter(c -> !c.getEndpointId().equals(endpoint.getId()))
                        .filter(c -> sameServer(c.getMyProxyServer(), endpoint.getMyProxyServer()))
                        .filter(c -> c.getNotAfter()
                                .isAfter(now.plusSeconds(Math.max(ifExpiresInSeconds, 0))
                                        .plus(EndpointSessions.EXPIRY_MARGIN)))
                        .max(Comparator.comparing(EndpointCredential::getNotAfter));
        if (cached.isPresent()) {
            EndpointCredential from = cached.get();
            GsiCredential credential;
            try {
                credential = PemFiles.parseCredential(
                        secrets.open(from.getSealedCredential(), EndpointSecrets.credentialContext(from.getId())));
            } catch (IOException | GeneralSecurityException e) {
                credential = null;
            }
            if (credential != null) {
                EndpointCredential stored =
                        store(user, endpoint, credential, from.getMethod(), from.getMyProxyServer(), TrustRoots.EMPTY);
                return new ActivationResult(
                        "AutoActivated.CachedCredential",
                        "Endpoint " + endpoint.getCanonicalName()
                                + " activated with your credential from MyProxy server "
                                + from.getMyProxyServer() + ", cached for another endpoint, until "
                                + stored.getNotAfter(),
                        new ActivationStatus(true, true, stored.getNotAfter(), stored.getSubject()),
                        List.of());
            }
        }
        return new ActivationResult(
                "AutoActivationFailed",
                "Endpoint " + endpoint.getCanonicalName() + " could not be activated automatically: activate it ("
                        + EndpointAccessService.activateHint(endpoint) + ")",
                status,
                requirementList(user, endpoint));
    }

    private static boolean sameServer(String a, String b) {
        if (a == null || b == null) {
            return false;
        }
        String left = a.contains(":") ? a : a + ":" + MyProxyClient.DEFAULT_PORT;
        String right = b.contains(":") ? b : b + ":" + MyProxyClient.DEFAULT_PORT;
        return left.equalsIgnoreCase(right);
    }

    /**
     * Forgets the user's credential for the endpoint; the user's tasks on it go INACTIVE.
     *
     * @param user the user
     * @param endpoint the endpoint
     * @return {@code Deactivated}
     * @throws ConflictException {@code ClientError.Conflict.NotActivated} if the endpoint needs no
     *     activation or holds no credential of the user's
     */
    public ActivationResult deactivate(String user, Endpoint endpoint) {
        if (!endpoint.isGsi() && !endpoint.needsActivation()) {
            throw new ConflictException(
                    NOT_ACTIVATED,
                    "endpoint_id",
                    "Endpoint " + endpoint.getCanonicalName()
                            + " holds no activation credential to remove (it logs in with its stored login)");
        }
        Integer removed = transactions.execute(tx -> {
            int rows = credentials.deleteByEndpointAndOwner(endpoint.getId(), user);
            if (rows > 0) {
                publisher.publishEvent(new EndpointDeactivatedEvent(endpoint.getId(), user));
            }
            return rows;
        });
        if (removed == null || removed == 0) {
            throw new ConflictException(
                    NOT_ACTIVATED,
                    "endpoint_id",
                    "Endpoint " + endpoint.getCanonicalName() + " holds no activation credential of yours to remove");
        }
        return new ActivationResult(
                "Deactivated",
                "Endpoint " + endpoint.getCanonicalName() + " deactivated: your credential for it is deleted",
                access.status(user, endpoint),
                List.of());
    }
}
