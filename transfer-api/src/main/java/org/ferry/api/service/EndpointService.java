package org.ferry.api.service;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import org.ferry.api.credential.EndpointSecrets;
import org.ferry.api.domain.Endpoint;
import org.ferry.api.repository.EndpointRepository;
import org.ferry.mover.client.GridFtpUrl;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Endpoint registry. A user sees and uses only the endpoints they own (their stored passwords
 * must not serve anybody else); others' endpoints answer 404 as if absent.
 */
@Service
public class EndpointService {

    /** Longest name part of a canonical name. */
    public static final int MAX_NAME_CHARS = 128;

    private final EndpointRepository endpoints;
    private final EndpointSecrets secrets;
    private final boolean allowClearText;

    /**
     * @param endpoints the endpoint store
     * @param secrets seals passwords
     * @param allowClearText {@code ferry.endpoints.allow-clear-text} (default true): false refuses
     *     {@code ftp://} endpoints, whose logins and data pass in clear
     */
    public EndpointService(
            EndpointRepository endpoints,
            EndpointSecrets secrets,
            @Value("${ferry.endpoints.allow-clear-text:true}") boolean allowClearText) {
        this.endpoints = endpoints;
        this.secrets = secrets;
        this.allowClearText = allowClearText;
    }

    /** @return false when this server refuses {@code ftp://} endpoints */
    public boolean allowsClearText() {
        return allowClearText;
    }

    /**
     * @param endpoint an endpoint
     * @param field the request field naming it, for the error
     * @throws ApiException 400 if it is a clear-text endpoint and this server forbids them
     */
    public void checkAllowed(Endpoint endpoint, String field) {
        if (!allowClearText && !endpoint.isGsi()) {
            throw ApiException.badRequest(
                    field,
                    "Endpoint " + endpoint.getCanonicalName() + " is a clear-text (ftp://) endpoint, which this"
                            + " server does not allow (ferry.endpoints.allow-clear-text=false)");
        }
    }

    /**
     * Registers an endpoint from an endpoint document.
     *
     * @param caller the user; must be the owner part of {@code canonical_name}
     * @param body {@code canonical_name}, {@code url}, optional {@code username} (default
     *     {@code anonymous}), {@code password} (default empty; stored sealed; not for
     *     {@code gsiftp://}, whose users activate the endpoint), {@code myproxy_server} and
     *     {@code myproxy_dn} (the MyProxy server users activate against), {@code display_name}
     *     (ignored: the name part is the display name)
     * @return the stored endpoint
     * @throws ApiException 400 naming the field for invalid values or another owner, 409 if the
     *     name is taken
     */
    @Transactional
    public Endpoint create(String caller, Map<String, Object> body) {
        if (body == null) {
            throw ApiException.badRequest(null, "Request body must be an endpoint document");
        }
        Object dataType = body.get("DATA_TYPE");
        if (dataType != null && !"endpoint".equals(dataType)) {
            throw ApiException.badRequest("DATA_TYPE", "DATA_TYPE must be 'endpoint'");
        }
        String canonicalName = string(body, "canonical_name", true);
        int hash = canonicalName.indexOf('#');
        if (hash <= 0 || hash == canonicalName.length() - 1 || canonicalName.indexOf('#', hash + 1) >= 0) {
            throw ApiException.badRequest("canonical_name", "canonical_name must be owner#name");
        }
        String owner = canonicalName.substring(0, hash);
        String name = canonicalName.substring(hash + 1);
        if (!owner.equals(caller)) {
            throw ApiException.badRequest(
                    "canonical_name", "canonical_name must start with your user name: " + caller + "#" + name);
        }
        if (name.length() > MAX_NAME_CHARS || !name.matches("[\\p{L}\\p{N}._~+-]+")) {
            throw ApiException.badRequest(
                    "canonical_name",
                    "the endpoint name must be 1-" + MAX_NAME_CHARS + " letters, digits or . _ ~ + -");
        }
        String url = string(body, "url", true);
        GridFtpUrl parsed;
        try {
            parsed = GridFtpUrl.parse(url);
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest("url", e.getMessage());
        }
        if (url.substring(url.indexOf("//") + 2).contains("@")) {
            // the URL is returned to callers; credentials belong in the write-only fields
            throw ApiException.badRequest("url", "url must not hold credentials; use username and password");
        }
        if (!allowClearText && !parsed.scheme().equals("gsiftp")) {
            throw ApiException.badRequest(
                    "url",
                    "This server does not allow clear-text (ftp://) endpoints (ferry.endpoints.allow-clear-text=false):"
                            + " use a gsiftp:// server");
        }
        String username = string(body, "username", false);
        String password = string(body, "password", false);
        if (parsed.scheme().equals("gsiftp") && password != null && !password.isEmpty()) {
            throw ApiException.badRequest(
                    "password",
                    "A gsiftp:// endpoint takes no password: each user activates it with a credential of their own");
        }
        String myProxyServer = string(body, "myproxy_server", false);
        if (myProxyServer != null && !myProxyServer.strip().matches("[A-Za-z0-9.\\-]+(:[0-9]{1,5})?")) {
            throw ApiException.badRequest("myproxy_server", "myproxy_server must be host or host:port");
        }
        String myProxyDn = string(body, "myproxy_dn", false);
        if (endpoints.findByCanonicalName(canonicalName).isPresent()) {
            throw ApiException.conflict("canonical_name", "An endpoint named " + canonicalName + " exists");
        }
        String normalizedUrl = parsed.scheme() + "://" + parsed.host() + ":" + parsed.port();
        Endpoint endpoint = new Endpoint(
                owner, name, normalizedUrl, username == null || username.isEmpty() ? "anonymous" : username);
        secrets.setPassword(endpoint, password);
        endpoint.setMyProxy(
                myProxyServer == null || myProxyServer.isBlank() ? null : myProxyServer.strip(),
                myProxyDn == null || myProxyDn.isBlank() ? null : myProxyDn.strip());
        return endpoints.save(endpoint);
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
        return endpoints.save(endpoint);
    }

    /**
     * @param caller the user
     * @param idOrName endpoint id, {@code owner#name}, or a bare name of the caller's
     * @param field the parameter or JSON field naming the endpoint, for the error
     * @return the endpoint
     * @throws ApiException 404 if absent or not the caller's
     */
    @Transactional(readOnly = true)
    public Endpoint resolve(String caller, String idOrName, String field) {
        Endpoint endpoint = find(caller, idOrName);
        if (endpoint == null || !endpoint.getOwnerName().equals(caller)) {
            throw ApiException.notFound(field, "Endpoint '" + idOrName + "' not found");
        }
        return endpoint;
    }

    private Endpoint find(String caller, String idOrName) {
        try {
            return endpoints.findById(UUID.fromString(idOrName)).orElse(null);
        } catch (IllegalArgumentException notAnId) {
            String name = idOrName.contains("#") ? idOrName : caller + "#" + idOrName;
            return endpoints.findByCanonicalName(name).orElse(null);
        }
    }

    /**
     * @param caller the user
     * @param fulltext optional case-insensitive substring of the canonical name
     * @return the caller's matching endpoints, by canonical name
     */
    @Transactional(readOnly = true)
    public List<Endpoint> search(String caller, String fulltext) {
        String needle = fulltext == null ? "" : fulltext.toLowerCase(Locale.ROOT);
        return endpoints.findByOwnerNameOrderByCanonicalName(caller).stream()
                .filter(e -> e.getCanonicalName().toLowerCase(Locale.ROOT).contains(needle))
                .toList();
    }

    /**
     * @param caller the user
     * @param idOrName the endpoint
     * @throws ApiException 404 if absent or not the caller's
     */
    @Transactional
    public void delete(String caller, String idOrName) {
        endpoints.delete(resolve(caller, idOrName, "endpoint_id"));
    }

    private static String string(Map<String, Object> body, String field, boolean required) {
        Object value = body.get(field);
        if (value == null || (required && value instanceof String s && s.isBlank())) {
            if (required) {
                throw ApiException.badRequest(field, field + " is required");
            }
            return null;
        }
        if (!(value instanceof String s)) {
            throw ApiException.badRequest(field, field + " must be a string");
        }
        return s;
    }
}
