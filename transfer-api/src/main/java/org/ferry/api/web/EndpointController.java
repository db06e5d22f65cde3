package org.ferry.api.web;

import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import java.util.Map;
import org.ferry.api.command.EndpointDefinition;
import org.ferry.api.credential.EndpointAccessService;
import org.ferry.api.document.EndpointDocument;
import org.ferry.api.document.EndpointRequest;
import org.ferry.api.document.OffsetListDocument;
import org.ferry.api.document.ResultDocument;
import org.ferry.api.document.ServerAddResultDocument;
import org.ferry.api.document.ServerDocument;
import org.ferry.api.document.ServerListDocument;
import org.ferry.api.document.ServerRequest;
import org.ferry.api.domain.Endpoint;
import org.ferry.api.domain.EndpointServer;
import org.ferry.api.error.NotSupportedException;
import org.ferry.api.identity.Caller;
import org.ferry.api.service.EndpointServers;
import org.ferry.api.service.EndpointService;
import org.ferry.api.service.Paging;
import org.ferry.api.service.PersonalEndpoints;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/**
 * Endpoints: search, create, get, update, delete, their GridFTP servers (list, get, add, update,
 * delete; docs/rest-api.md "Endpoints"; the
 * activation calls are {@link ActivationController}'s). An endpoint is named by id or canonical
 * name ({@code owner%23name} in paths). Documents carry the caller's own activation.
 */
@RestController
@RequestMapping(path = "/v0.10", produces = "application/json")
public class EndpointController {

    /** Largest {@code limit} of a search (Globus: 1000 results per query). */
    public static final int MAX_SEARCH_LIMIT = 1000;

    private final EndpointService endpoints;
    private final OwnerIds ownerIds;
    private final EndpointAccessService activations;
    private final EndpointServers servers;
    private final EndpointRequests requests;
    private final PersonalEndpoints personal;

    /**
     * @param endpoints the endpoint registry
     * @param ownerIds owner account ids
     * @param activations the caller's activation of each endpoint
     * @param servers the endpoints' GridFTP servers
     * @param requests maps the endpoint and server documents, field by field
     * @param personal personal endpoints (Ferry Connect)
     */
    public EndpointController(
            EndpointService endpoints,
            OwnerIds ownerIds,
            EndpointAccessService activations,
            EndpointServers servers,
            EndpointRequests requests,
            PersonalEndpoints personal) {
        this.personal = personal;
        this.endpoints = endpoints;
        this.ownerIds = ownerIds;
        this.activations = activations;
        this.servers = servers;
        this.requests = requests;
    }

    private EndpointDocument document(Caller caller, Endpoint endpoint, String ownerId) {
        return ApiDocuments.endpoint(
                endpoint,
                ownerId,
                activations.status(caller.name(), endpoint),
                activations.now(),
                servers.of(endpoint),
                personal.presence(endpoint));
    }

    /**
     * {@code POST /endpoint}: 201 with the endpoint document. With {@code is_globus_connect: true}
     * (and a name, no {@code url}) it makes a personal endpoint (Ferry Connect) and the document
     * carries its agent's one-time {@code globus_connect_setup_key}, shown this once.
     */
    @PostMapping("/endpoint")
    @ResponseStatus(HttpStatus.CREATED)
    public EndpointDocument create(Caller caller, @RequestBody EndpointRequest body) {
        if (Boolean.TRUE.equals(body.isGlobusConnect())) {
            EndpointDefinition definition = requests.personal(body);
            PersonalEndpoints.Created created = personal.create(
                    caller, definition.canonicalName(), definition.displayName(), definition.description());
            return document(caller, created.endpoint(), caller.accountId().toString())
                    .withSetupKey(created.setupKey().setupKey());
        }
        return document(
                caller,
                endpoints.create(caller, requests.create(body)),
                caller.accountId().toString());
    }

    /** {@code GET /endpoint/{id or name}}: the endpoint document. */
    @GetMapping("/endpoint/{endpoint}")
    public EndpointDocument show(Caller caller, @PathVariable("endpoint") String endpoint) {
        Endpoint found = endpoints.resolve(caller, endpoint, "endpoint_id");
        return document(caller, found, ownerIds.of(found.getOwnerName()));
    }

    /** {@code PUT /endpoint/{id or name}}: changes the fields given; result {@code Updated}. */
    @PutMapping("/endpoint/{endpoint}")
    public ResultDocument update(
            Caller caller,
            @PathVariable("endpoint") String endpoint,
            @RequestBody EndpointRequest body,
            HttpServletRequest request) {
        Endpoint current = endpoints.resolve(caller, endpoint, "endpoint_id");
        EndpointDocument shown = document(caller, current, ownerIds.of(current.getOwnerName()));
        endpoints.update(caller, endpoint, requests.update(body, shown));
        return result("result", "Updated", "Endpoint updated successfully", request);
    }

    /** {@code DELETE /endpoint/{id or name}}: result {@code Deleted}. */
    @DeleteMapping("/endpoint/{endpoint}")
    public ResultDocument delete(Caller caller, @PathVariable("endpoint") String endpoint, HttpServletRequest request) {
        personal.delete(caller, endpoint);
        return result("result", "Deleted", "Endpoint deleted successfully", request);
    }

    /**
     * {@code POST /endpoint/{id or name}/revoke}: revokes a personal endpoint's agent (cut off at
     * once, its certificate refused from now on); result {@code Revoked}.
     */
    @PostMapping("/endpoint/{endpoint}/revoke")
    public ResultDocument revoke(Caller caller, @PathVariable("endpoint") String endpoint, HttpServletRequest request) {
        Endpoint revoked = personal.revoke(caller, endpoint);
        return result(
                "result", "Revoked", "The agent of " + revoked.getCanonicalName() + " is revoked and cut off", request);
    }

    /** {@code GET /endpoint/{id or name}/server_list}: the endpoint's GridFTP servers, in the order tried. */
    @GetMapping("/endpoint/{endpoint}/server_list")
    public ServerListDocument serverList(Caller caller, @PathVariable("endpoint") String endpoint) {
        Endpoint found = endpoints.resolve(caller, endpoint, "endpoint_id");
        return new ServerListDocument(
                "endpoint_server_list", found.getCanonicalName(), ApiDocuments.servers(servers.of(found)));
    }

    /** {@code GET /endpoint/{id or name}/server/{server_id}}: one server document. */
    @GetMapping("/endpoint/{endpoint}/server/{server}")
    public ServerDocument server(
            Caller caller, @PathVariable("endpoint") String endpoint, @PathVariable("server") long server) {
        return ApiDocuments.servers(List.of(servers.get(caller, endpoint, server)))
                .get(0);
    }

    /**
     * {@code POST /endpoint/{id or name}/server}: adds a GridFTP server (same scheme as the
     * endpoint's others); {@code endpoint_server_add_result} {@code Created} with its id.
     */
    @PostMapping("/endpoint/{endpoint}/server")
    @ResponseStatus(HttpStatus.CREATED)
    public ServerAddResultDocument addServer(
            Caller caller,
            @PathVariable("endpoint") String endpoint,
            @RequestBody ServerRequest body,
            HttpServletRequest request) {
        EndpointServer added = servers.add(caller, endpoint, EndpointRequests.server(body, null));
        return new ServerAddResultDocument(
                "endpoint_server_add_result",
                "Created",
                "Server " + added.uri() + " added to the endpoint",
                added.getId(),
                RequestIds.resource(request),
                RequestIds.of(request));
    }

    /** {@code PUT /endpoint/{id or name}/server/{server_id}}: changes a server; result {@code Updated}. */
    @PutMapping("/endpoint/{endpoint}/server/{server}")
    public ResultDocument updateServer(
            Caller caller,
            @PathVariable("endpoint") String endpoint,
            @PathVariable("server") long server,
            @RequestBody ServerRequest body,
            HttpServletRequest request) {
        servers.update(caller, endpoint, server, EndpointRequests.server(body, server));
        return result("result", "Updated", "Server updated successfully", request);
    }

    /** {@code DELETE /endpoint/{id or name}/server/{server_id}}: result {@code Deleted}; 409 for the last one. */
    @DeleteMapping("/endpoint/{endpoint}/server/{server}")
    public ResultDocument deleteServer(
            Caller caller,
            @PathVariable("endpoint") String endpoint,
            @PathVariable("server") long server,
            HttpServletRequest request) {
        servers.delete(caller, endpoint, server);
        return result("result", "Deleted", "Server deleted successfully", request);
    }

    /**
     * {@code GET /endpoint_search}: endpoints the caller may see, by canonical name, paged with
     * {@code limit}/{@code offset} and {@code has_next_page}.
     */
    @GetMapping("/endpoint_search")
    public OffsetListDocument<EndpointDocument> search(
            Caller caller,
            @RequestParam(name = "filter_fulltext", required = false) String fulltext,
            @RequestParam(name = "filter_scope", required = false) String scope,
            @RequestParam(name = "filter_owner_id", required = false) String ownerId,
            @RequestParam(name = "filter_non_functional", required = false) String nonFunctional,
            @RequestParam(name = "filter_host_endpoint", required = false) String hostEndpoint,
            @RequestParam(name = "filter_entity_type", required = false) String entityType,
            @RequestParam(name = "limit", required = false) Integer limit,
            @RequestParam(name = "offset", required = false) Integer offset) {
        if (hostEndpoint != null) {
            throw new NotSupportedException(
                    "filter_host_endpoint", "filter_host_endpoint: Ferry has no hosted endpoints");
        }
        if (entityType != null && !entityType.equals("GCSv4_endpoint")) {
            throw new NotSupportedException(
                    "filter_entity_type", "filter_entity_type: Ferry endpoints are all GCSv4_endpoint (GridFTP)");
        }
        int size = Paging.limit(limit, 25, MAX_SEARCH_LIMIT);
        int first = Paging.offset(offset);
        List<Endpoint> all = endpoints.search(caller, fulltext, scope, ownerName(ownerId));
        if ("1".equals(nonFunctional) || "true".equalsIgnoreCase(nonFunctional)) {
            all = List.of(); // every Ferry endpoint is functional
        }
        List<Endpoint> page = all.stream().skip(first).limit(size).toList();
        Map<String, String> ids =
                ownerIds.of(page.stream().map(Endpoint::getOwnerName).toList());
        return OffsetListDocument.of(
                "endpoint_list",
                page.stream()
                        .map(e -> document(caller, e, ids.get(e.getOwnerName())))
                        .toList(),
                size,
                first,
                all.size());
    }

    /** {@code filter_owner_id} takes an account id or a user name. */
    private String ownerName(String ownerId) {
        if (ownerId == null || ownerId.isBlank()) {
            return null;
        }
        return ownerIds.nameOf(ownerId);
    }

    private static ResultDocument result(String type, String code, String message, HttpServletRequest request) {
        return new ResultDocument(type, code, message, RequestIds.resource(request), RequestIds.of(request));
    }
}
