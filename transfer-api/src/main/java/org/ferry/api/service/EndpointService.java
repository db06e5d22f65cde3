package org.ferry.api.service;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Stream;
import org.ferry.api.command.EndpointDefinition;
import org.ferry.api.command.ServerDefinition;
import org.ferry.api.credential.EndpointSecrets;
import org.ferry.api.credential.EndpointServerRows;
import org.ferry.api.domain.Endpoint;
import org.ferry.api.domain.EndpointServer;
import org.ferry.api.error.ConflictException;
import org.ferry.api.error.InvalidRequestException;
import org.ferry.api.error.NotFoundException;
import org.ferry.api.error.PermissionDeniedException;
import org.ferry.api.identity.Caller;
import org.ferry.api.repository.EndpointRepository;
import org.ferry.api.repository.TaskRepository;
import org.ferry.mover.client.GridFtpUrl;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Endpoint registry. A private endpoint is seen and used by its owner only (its stored password
 * must serve nobody else): others get 404 as if it were absent. A public endpoint is seen and
 * used by every user; only its owner changes or deletes it (others: 403). A {@code gsiftp://}
 * endpoint has no stored login: each user activates it with a credential of their own, so a
 * public one serves every user as themselves. Passwords are stored sealed
 * ({@link EndpointSecrets}); {@code ferry.endpoints.allow-clear-text=false} refuses
 * {@code ftp://} endpoints.
 */
@Service
public class EndpointService {

    /** Longest name part of a canonical name. */
    public static final int MAX_NAME_CHARS = 128;
    /** Longest description. */
    public static final int MAX_DESCRIPTION_CHARS = 4096;
    /** The search scopes of Globus {@code endpoint_search} (service-semantics b.1). */
    public static final Set<String> SCOPES = Set.of(
            "all",
            "my-endpoints",
            "administered-by-me",
            "my-gcp-endpoints",
            "recently-used",
            "in-use",
            "shared-by-me",
            "shared-with-me");

    private final EndpointRepository endpoints;
    private final TaskRepository tasks;
    private final EndpointSecrets secrets;
    private final EndpointServerRows servers;
    private final boolean allowClearText;
    private final TransactionTemplate transactions;

    /**
     * @param endpoints the endpoint store
     * @param tasks the task store (for the recently-used and in-use scopes)
     * @param secrets seals passwords
     * @param servers the endpoints' server rows (the first follows {@code url})
     * @param allowClearText {@code ferry.endpoints.allow-clear-text} (default true): false refuses
     *     {@code ftp://} endpoints, whose logins and data pass in clear
     * @param transactions runs {@link #create}'s writes (its checks and network reads run outside)
     */
    public EndpointService(
            EndpointRepository endpoints,
            TaskRepository tasks,
            EndpointSecrets secrets,
            EndpointServerRows servers,
            @Value("${ferry.endpoints.allow-clear-text:true}") boolean allowClearText,
            TransactionTemplate transactions) {
        this.endpoints = endpoints;
        this.tasks = tasks;
        this.secrets = secrets;
        this.servers = servers;
        this.allowClearText = allowClearText;
        this.transactions = transactions;
    }

    /** @return false when this server refuses {@code ftp://} endpoints */
    public boolean allowsClearText() {
        return allowClearText;
    }

    /**
     * @param endpoint an endpoint
     * @param field the request field naming it, for the error
     * @throws InvalidRequestException if it is a clear-text endpoint and this server forbids them
     */
    public void checkAllowed(Endpoint endpoint, String field) {
        if (!allowClearText && !endpoint.isGsi()) {
            throw new InvalidRequestException(
                    field,
                    "Endpoint " + endpoint.getCanonicalName() + " is a clear-text (ftp://) endpoint, which this"
                            + " server does not allow (ferry.endpoints.allow-clear-text=false)");
        }
    }

    /**
     * Registers an endpoint.
     *
     * @param caller the owner to be
     * @param body {@code canonical_name} ({@code caller#name}) or {@code display_name}, {@code url}
     *     and/or the servers ({@code DATA}, in the order they are tried; {@code url} is the
     *     first's), optional {@code username} (default {@code anonymous}), {@code password}
     *     (default empty; stored sealed; not for {@code gsiftp://}, whose users activate the
     *     endpoint), {@code myproxy_server} and {@code myproxy_dn} (the MyProxy server users
     *     activate against), {@code description}, {@code public}, {@code default_directory}
     * @return the stored endpoint
     * @throws InvalidRequestException naming the field for invalid values or another owner
     * @throws ConflictException if the name is taken
     */
    public Endpoint create(Caller caller, EndpointDefinition body) {
        // Not one transaction: pinning an sshftp:// server's host key may read it over the network
        // (up to SshftpLogins.HOST_KEY_TIMEOUT), which must not hold a database connection and
        // transaction open; the checks and that read come first, the rows are written in one
        // transaction after them (a name taken meanwhile fails on the unique canonical name).
        String name;
        String nameField;
        if (body.canonicalName() != null) {
            nameField = "canonical_name";
            String canonical = body.canonicalName();
            int hash = canonical.indexOf('#');
            if (hash <= 0 || hash == canonical.length() - 1 || canonical.indexOf('#', hash + 1) >= 0) {
                throw new InvalidRequestException(nameField, "canonical_name must be owner#name");
            }
            String owner = canonical.substring(0, hash);
            name = canonical.substring(hash + 1);
            if (!caller.owns(owner)) {
                throw new InvalidRequestException(
                        nameField, "canonical_name must start with your user name: " + caller.name() + "#" + name);
            }
            if (body.displayName() != null && !body.displayName().equals(name)) {
                throw new InvalidRequestException(
                        "display_name", "display_name must be the name part of canonical_name");
            }
        } else if (body.displayName() != null) {
            nameField = "display_name";
            name = body.displayName();
        } else {
            throw new InvalidRequestException("canonical_name", "canonical_name (owner#name) is required");
        }
        checkName(nameField, name);
        List<ServerLocation> locations = locations(body.servers());
        String url;
        if (body.url() == null || body.url().isBlank()) {
            if (locations.isEmpty()) {
                throw new InvalidRequestException("url", "url is required (or the servers, DATA)");
            }
            url = locations.get(0).uri();
        } else {
            url = url(body.url());
            if (!locations.isEmpty() && !locations.get(0).uri().equals(url)) {
                throw new InvalidRequestException(
                        "DATA[0]",
                        "url " + url + " and the first server "
                                + locations.get(0).uri()
                                + " differ: url is the first server's (send one of them, or both alike)");
            }
        }
        if (endpoints.findByCanonicalName(caller.name() + "#" + name).isPresent()) {
            throw new ConflictException(nameField, "An endpoint named " + caller.name() + "#" + name + " exists");
        }
        String username = body.username() == null || body.username().isEmpty() ? "anonymous" : body.username();
        checkPassword(url, body.password());
        boolean ssh = url.startsWith("sshftp://");
        String secret = body.password();
        String hostKey = null;
        if (ssh) {
            if (!locations.isEmpty() && locations.size() > 1) {
                throw new InvalidRequestException("DATA", "An sshftp:// endpoint has one server, its url's");
            }
            if (username.equals("anonymous") && body.sshPrivateKey() != null) {
                throw new InvalidRequestException("username", "An sshftp:// endpoint needs the SSH login (username)");
            }
            GridFtpUrl parsed = GridFtpUrl.parse(url);
            // no key: each user activates the endpoint with an SSH key of their own
            secret = body.sshPrivateKey() == null ? null : SshftpLogins.privateKey(body.sshPrivateKey());
            hostKey = SshftpLogins.hostKey(body.sshHostKey(), parsed.host(), parsed.port());
        } else if (body.sshPrivateKey() != null || body.sshHostKey() != null) {
            throw new InvalidRequestException(
                    body.sshPrivateKey() != null ? "ssh_private_key" : "ssh_host_key",
                    "ssh_private_key and ssh_host_key are for sshftp:// endpoints only");
        }
        String login = secret;
        String pinned = hostKey;
        String endpointUrl = url;
        String endpointName = name;
        return transactions.execute(
                status -> store(caller, body, endpointName, endpointUrl, username, login, locations, ssh, pinned));
    }

    /** Writes the rows of a checked new endpoint (in {@link #create}'s transaction). */
    private Endpoint store(
            Caller caller,
            EndpointDefinition body,
            String name,
            String url,
            String username,
            String secret,
            List<ServerLocation> locations,
            boolean ssh,
            String hostKey) {
        Endpoint endpoint = new Endpoint(caller.name(), name, url, username);
        secrets.setPassword(endpoint, secret);
        endpoint.setMyProxy(myProxyServer(body.myProxyServer()), blankToNull(body.myProxyDn()));
        endpoint.describe(
                description(body.description()),
                Boolean.TRUE.equals(body.isPublic()),
                defaultDirectory(body.defaultDirectory()));
        Endpoint saved = endpoints.save(endpoint);
        if (ssh) {
            // the host key pinned now is the only one its sessions will trust
            GridFtpUrl parsed = GridFtpUrl.parse(url);
            servers.create(
                    saved,
                    List.of(new EndpointServer(saved.getId(), 0, "sshftp", parsed.host(), parsed.port(), hostKey)));
        } else if (locations.isEmpty()) {
            servers.followUrl(saved);
        } else {
            List<EndpointServer> rows = new ArrayList<>(locations.size());
            for (ServerLocation location : locations) {
                rows.add(new EndpointServer(
                        saved.getId(),
                        rows.size(),
                        location.scheme(),
                        location.hostname(),
                        location.port(),
                        location.subject()));
            }
            servers.create(saved, rows);
        }
        return saved;
    }

    /**
     * Checks the name and description of a personal endpoint to be, before its agent is made (an
     * agent's record holds one of the relay's control ports for good).
     *
     * @param caller the owner to be
     * @param name the name part
     * @param description free text or null
     * @throws InvalidRequestException naming {@code display_name} or {@code description}
     * @throws ConflictException naming {@code display_name} if the name is taken
     */
    @Transactional(readOnly = true)
    public void checkPersonal(Caller caller, String name, String description) {
        checkName("display_name", name);
        description(description);
        if (endpoints.findByCanonicalName(caller.name() + "#" + name).isPresent()) {
            throw new ConflictException("display_name", "An endpoint named " + caller.name() + "#" + name + " exists");
        }
    }

    /**
     * Registers a personal endpoint (Ferry Connect): its one server is the agent's control port on
     * the relay, and the agent must present {@code subject}.
     *
     * @param caller the owner to be
     * @param name the name part
     * @param description free text or null
     * @param url {@code gsiftp://HOST:PORT} where movers reach the agent through the relay
     * @param subject the DN of the agent's certificate
     * @param agentId the agent's id on the relay
     * @return the stored endpoint
     * @throws InvalidRequestException naming {@code display_name} for an invalid name
     * @throws ConflictException if the name is taken
     */
    @Transactional
    public Endpoint createPersonal(
            Caller caller, String name, String description, String url, String subject, String agentId) {
        checkPersonal(caller, name, description);
        Endpoint endpoint = new Endpoint(caller.name(), name, url(url), "anonymous");
        endpoint.setConnectAgentId(agentId);
        endpoint.describe(description(description), false, null);
        Endpoint saved = endpoints.save(endpoint);
        GridFtpUrl parsed = GridFtpUrl.parse(url);
        servers.create(
                saved, List.of(new EndpointServer(saved.getId(), 0, "gsiftp", parsed.host(), parsed.port(), subject)));
        return saved;
    }

    /**
     * Marks a personal endpoint's agent revoked.
     *
     * @param caller the owner
     * @param idOrName the endpoint
     * @return the endpoint
     * @throws InvalidRequestException if it is not a personal endpoint
     */
    @Transactional
    public Endpoint markRevoked(Caller caller, String idOrName) {
        Endpoint endpoint = owned(caller, idOrName);
        if (!endpoint.isPersonal()) {
            throw new InvalidRequestException(
                    "endpoint_id",
                    endpoint.getCanonicalName() + " is not a personal endpoint: it has no agent to revoke");
        }
        endpoint.revokeConnect();
        return endpoints.save(endpoint);
    }

    /** @return the servers given, checked (all of one scheme, none twice), or empty for none */
    private static List<ServerLocation> locations(List<ServerDefinition> given) {
        if (given == null) {
            return List.of();
        }
        if (given.isEmpty()) {
            throw new InvalidRequestException("DATA", "DATA must hold at least one server, or be left out");
        }
        List<ServerLocation> locations = new ArrayList<>(given.size());
        for (int i = 0; i < given.size(); i++) {
            String prefix = "DATA[" + i + "].";
            ServerLocation location = ServerLocation.of(given.get(i), null, prefix);
            if (!locations.isEmpty() && !locations.get(0).scheme().equals(location.scheme())) {
                throw new InvalidRequestException(
                        prefix + "scheme", "An endpoint's servers are all ftp:// or all gsiftp://");
            }
            if (locations.stream().anyMatch(l -> l.uri().equals(location.uri()))) {
                throw new InvalidRequestException(prefix + "uri", location.uri() + " is in DATA twice");
            }
            locations.add(location);
        }
        return locations;
    }

    /**
     * Changes an endpoint: the fields given (not null) replace the stored ones.
     *
     * @param caller the owner
     * @param idOrName the endpoint
     * @param body the fields to change
     * @return the changed endpoint
     * @throws NotFoundException if the caller cannot see it
     * @throws PermissionDeniedException if it is another user's public endpoint
     * @throws InvalidRequestException naming the field for invalid values
     * @throws ConflictException if a new name is taken
     */
    @Transactional
    public Endpoint update(Caller caller, String idOrName, EndpointDefinition body) {
        Endpoint endpoint = owned(caller, idOrName);
        if (endpoint.isPersonal() && body.url() != null && !body.url().equals(endpoint.getUrl())) {
            throw new InvalidRequestException(
                    "url", "url: a personal endpoint's server is its agent on the relay; it cannot change");
        }
        if (body.servers() != null) {
            throw new InvalidRequestException(
                    "DATA", "DATA: an endpoint's servers change through /endpoint/{id}/server, not an endpoint update");
        }
        String newName = body.displayName();
        if (body.canonicalName() != null && !body.canonicalName().equals(endpoint.getCanonicalName())) {
            String prefix = endpoint.getOwnerName() + "#";
            if (!body.canonicalName().startsWith(prefix)) {
                throw new InvalidRequestException("canonical_name", "canonical_name must start with " + prefix);
            }
            String fromCanonical = body.canonicalName().substring(prefix.length());
            if (newName != null && !newName.equals(fromCanonical)) {
                throw new InvalidRequestException(
                        "display_name", "display_name must be the name part of canonical_name");
            }
            newName = fromCanonical;
        }
        if (newName != null && !newName.equals(endpoint.getDisplayName())) {
            checkName("display_name", newName);
            if (endpoints
                    .findByCanonicalName(endpoint.getOwnerName() + "#" + newName)
                    .isPresent()) {
                throw new ConflictException(
                        "display_name", "An endpoint named " + endpoint.getOwnerName() + "#" + newName + " exists");
            }
            endpoint.rename(newName);
        }
        String url = body.url() == null ? endpoint.getUrl() : url(body.url());
        String username = body.username() == null ? endpoint.getUsername() : body.username();
        checkPassword(url, body.password());
        boolean ssh = endpoint.getUrl().startsWith("sshftp://");
        if (ssh != url.startsWith("sshftp://") || (ssh && !url.equals(endpoint.getUrl()))) {
            throw new InvalidRequestException(
                    "url", "an sshftp:// endpoint keeps its server (its host key is pinned): make a new endpoint");
        }
        if (body.sshHostKey() != null) {
            throw new InvalidRequestException(
                    "ssh_host_key", "the host key was pinned at creation: make a new endpoint for another key");
        }
        if (ssh && body.password() != null && !body.password().isEmpty()) {
            throw new InvalidRequestException(
                    "password", "An sshftp:// endpoint takes ssh_private_key, not a password");
        }
        if (!ssh && body.sshPrivateKey() != null) {
            throw new InvalidRequestException("ssh_private_key", "ssh_private_key is for sshftp:// endpoints only");
        }
        boolean storedKey = endpoint.getSealedPassword() != null || body.sshPrivateKey() != null;
        if (ssh && storedKey && (username.isEmpty() || username.equals("anonymous"))) {
            // the stored key logs in as this account (one without a key: each user's own login)
            throw new InvalidRequestException("username", "An sshftp:// endpoint needs the SSH login (username)");
        }
        endpoint.updateLogin(url, username.isEmpty() ? "anonymous" : username);
        if (ssh && body.sshPrivateKey() != null) {
            secrets.setPassword(endpoint, SshftpLogins.privateKey(body.sshPrivateKey()));
        } else if (!ssh && body.password() != null) {
            secrets.setPassword(endpoint, body.password());
        }
        if (url.startsWith("gsiftp://")) {
            endpoint.setSealedPassword(null); // users activate a gsiftp:// endpoint: no stored login
        }
        endpoint.setMyProxy(
                body.myProxyServer() == null ? endpoint.getMyProxyServer() : myProxyServer(body.myProxyServer()),
                body.myProxyDn() == null ? endpoint.getMyProxyDn() : blankToNull(body.myProxyDn()));
        endpoint.describe(
                body.description() == null ? endpoint.getDescription() : description(body.description()),
                body.isPublic() == null ? endpoint.isPublic() : body.isPublic(),
                body.defaultDirectory() == null
                        ? endpoint.getDefaultDirectory()
                        : defaultDirectory(body.defaultDirectory()));
        Endpoint saved = endpoints.save(endpoint);
        servers.followUrl(saved);
        return saved;
    }

    /**
     * Creates or updates an endpoint the server itself manages (the personal endpoint).
     *
     * @param owner owning user
     * @param name name part
     * @param url GridFTP URL without credentials
     * @param username login user
     * @param password login password
     * @return the stored endpoint
     */
    @Transactional
    public Endpoint register(String owner, String name, String url, String username, String password) {
        Endpoint endpoint = endpoints
                .findByCanonicalName(owner + "#" + name)
                .orElseGet(() -> new Endpoint(owner, name, url, username));
        endpoint.updateLogin(url, username);
        secrets.setPassword(endpoint, password);
        Endpoint saved = endpoints.save(endpoint);
        servers.followUrl(saved);
        return saved;
    }

    /**
     * An endpoint the caller may see and use: their own, or a public one.
     *
     * @param caller the user
     * @param idOrName endpoint id, {@code owner#name}, or a bare name of the caller's
     * @param field the parameter or JSON field naming the endpoint, for the error
     * @return the endpoint
     * @throws NotFoundException if absent or another user's private endpoint
     */
    @Transactional(readOnly = true)
    public Endpoint resolve(Caller caller, String idOrName, String field) {
        if (idOrName == null || idOrName.isBlank()) {
            throw new InvalidRequestException(field, field + " is required");
        }
        Endpoint endpoint = find(caller, idOrName);
        if (endpoint == null || !(caller.owns(endpoint.getOwnerName()) || endpoint.isPublic())) {
            throw new NotFoundException(field, "Endpoint '" + idOrName + "' not found");
        }
        return endpoint;
    }

    /**
     * Whether the caller may see an endpoint (their own or a public one), as {@link #resolve} decides,
     * without an exception (which would mark a surrounding transaction rollback-only).
     *
     * @param caller the user
     * @param endpointId the endpoint's id
     * @return true if it exists and the caller may see it
     */
    @Transactional(readOnly = true)
    public boolean visible(Caller caller, UUID endpointId) {
        return endpoints
                .findById(endpointId)
                .map(e -> caller.owns(e.getOwnerName()) || e.isPublic())
                .orElse(false);
    }

    /**
     * An endpoint the caller may change: their own (the admin role gives no power over
     * endpoints: an admin sees and cancels every task, not every endpoint).
     *
     * @param caller the user
     * @param idOrName the endpoint
     * @return the endpoint
     * @throws NotFoundException if the caller cannot see it
     * @throws PermissionDeniedException if it is another user's public endpoint
     */
    @Transactional(readOnly = true)
    public Endpoint resolveOwned(Caller caller, String idOrName) {
        return owned(caller, idOrName);
    }

    private Endpoint owned(Caller caller, String idOrName) {
        Endpoint endpoint = find(caller, idOrName);
        if (endpoint != null && caller.owns(endpoint.getOwnerName())) {
            return endpoint;
        }
        Endpoint visible = resolve(caller, idOrName, "endpoint_id");
        throw new PermissionDeniedException(
                "endpoint_id", "Only " + visible.getOwnerName() + " may change " + visible.getCanonicalName());
    }

    private Endpoint find(Caller caller, String idOrName) {
        try {
            return endpoints.findById(UUID.fromString(idOrName)).orElse(null);
        } catch (IllegalArgumentException notAnId) {
            String name = idOrName.contains("#") ? idOrName : caller.name() + "#" + idOrName;
            return endpoints.findByCanonicalName(name).orElse(null);
        }
    }

    /**
     * Endpoint search (Globus {@code endpoint_search}).
     *
     * @param caller the user
     * @param fulltext optional words; an endpoint matches when each appears (any case) in its
     *     canonical name, display name or description
     * @param scope null or one of {@link #SCOPES} (null: {@code all})
     * @param ownerName optional owner user name ({@code filter_owner_id})
     * @return the matching endpoints the caller may see, by canonical name
     * @throws InvalidRequestException naming {@code filter_scope} for an unknown scope
     */
    @Transactional(readOnly = true)
    public List<Endpoint> search(Caller caller, String fulltext, String scope, String ownerName) {
        String chosen = scope == null || scope.isBlank() ? "all" : scope;
        if (!SCOPES.contains(chosen)) {
            throw new InvalidRequestException(
                    "filter_scope",
                    "filter_scope must be one of "
                            + String.join(", ", SCOPES.stream().sorted().toList()));
        }
        Stream<Endpoint> candidates = switch (chosen) {
            case "all" -> endpoints.findVisible(caller.name()).stream();
            case "my-endpoints", "administered-by-me" ->
                endpoints.findByOwnerNameOrderByCanonicalName(caller.name()).stream();
            case "recently-used" -> used(caller, false);
            case "in-use" -> used(caller, true);
            default -> Stream.empty(); // no Globus Connect Personal, no sharing in Ferry
        };
        List<String> words = fulltext == null || fulltext.isBlank()
                ? List.of()
                : List.of(fulltext.toLowerCase(Locale.ROOT).trim().split("\\s+"));
        return candidates
                .filter(e -> ownerName == null
                        || ownerName.isBlank()
                        || e.getOwnerName().equals(ownerName))
                .filter(e -> words.stream().allMatch(w -> haystack(e).contains(w)))
                .sorted(Comparator.comparing(Endpoint::getCanonicalName))
                .toList();
    }

    private Stream<Endpoint> used(Caller caller, boolean activeOnly) {
        Set<UUID> ids = new LinkedHashSet<>();
        for (Object[] row :
                activeOnly ? tasks.endpointsOfActiveTasks(caller.name()) : tasks.endpointsUsed(caller.name())) {
            for (Object id : row) {
                if (id != null) {
                    ids.add((UUID) id);
                }
            }
        }
        return endpoints.findAllById(ids).stream().filter(e -> caller.owns(e.getOwnerName()) || e.isPublic());
    }

    private static String haystack(Endpoint e) {
        return (e.getCanonicalName() + " " + e.getDisplayName() + " "
                        + (e.getDescription() == null ? "" : e.getDescription()))
                .toLowerCase(Locale.ROOT);
    }

    /**
     * @param caller the owner
     * @param idOrName the endpoint
     * @throws NotFoundException if the caller cannot see it
     * @throws PermissionDeniedException if it is another user's public endpoint
     */
    @Transactional
    public void delete(Caller caller, String idOrName) {
        endpoints.delete(owned(caller, idOrName));
    }

    private static void checkName(String field, String name) {
        if (name.isEmpty() || name.length() > MAX_NAME_CHARS || !name.matches("[\\p{L}\\p{N}._~+-]+")) {
            throw new InvalidRequestException(
                    field, "the endpoint name must be 1-" + MAX_NAME_CHARS + " letters, digits or . _ ~ + -");
        }
    }

    private static void checkSshPassword(String url, String password) {
        if (url.startsWith("sshftp://") && password != null && !password.isEmpty()) {
            throw new InvalidRequestException(
                    "password", "An sshftp:// endpoint takes ssh_private_key, not a password");
        }
    }

    private void checkPassword(String url, String password) {
        checkSshPassword(url, password);
        if (url.startsWith("gsiftp://") && password != null && !password.isEmpty()) {
            throw new InvalidRequestException(
                    "password",
                    "A gsiftp:// endpoint takes no password: each user activates it with a credential of their own");
        }
    }

    private static String myProxyServer(String server) {
        if (server == null || server.isBlank()) {
            return null;
        }
        if (!server.strip().matches("[A-Za-z0-9.\\-]+(:[0-9]{1,5})?")) {
            throw new InvalidRequestException("myproxy_server", "myproxy_server must be host or host:port");
        }
        return server.strip();
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value.strip();
    }

    private String url(String url) {
        GridFtpUrl parsed;
        try {
            parsed = GridFtpUrl.parse(url);
        } catch (IllegalArgumentException e) {
            throw new InvalidRequestException("url", e.getMessage());
        }
        if (url.substring(url.indexOf("//") + 2).contains("@")) {
            // the URL is returned to callers; credentials belong in the write-only fields
            throw new InvalidRequestException("url", "url must not hold credentials; use username and password");
        }
        if (!allowClearText && !parsed.scheme().equals("gsiftp")) {
            throw new InvalidRequestException(
                    "url",
                    "This server does not allow clear-text (ftp://) endpoints (ferry.endpoints.allow-clear-text=false):"
                            + " use a gsiftp:// server");
        }
        return parsed.scheme() + "://" + parsed.host() + ":" + parsed.port();
    }

    private static String description(String description) {
        if (description != null && description.length() > MAX_DESCRIPTION_CHARS) {
            throw new InvalidRequestException(
                    "description", "description must be at most " + MAX_DESCRIPTION_CHARS + " characters");
        }
        return description == null || description.isEmpty() ? null : description;
    }

    private static String defaultDirectory(String directory) {
        return directory == null || directory.isEmpty() ? null : ApiPaths.absolute("default_directory", directory);
    }
}
