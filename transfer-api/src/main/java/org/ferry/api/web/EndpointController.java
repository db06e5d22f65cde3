package org.ferry.api.web;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.ferry.api.auth.AuthenticatedUser;
import org.ferry.api.credential.EndpointAccessService;
import org.ferry.api.domain.Endpoint;
import org.ferry.api.service.ApiPaths;
import org.ferry.api.service.DirectoryListingService;
import org.ferry.api.service.EndpointService;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestAttribute;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/** Endpoint CRUD, search and directory listing (rest-api.md "Endpoints"). */
@RestController
@RequestMapping("/v0.10")
public class EndpointController {

    private static final int MAX_SEARCH_LIMIT = 1000;

    private final EndpointService endpoints;
    private final DirectoryListingService listings;
    private final EndpointAccessService activations;

    /**
     * @param endpoints endpoint registry
     * @param listings GridFTP listings
     * @param activations the caller's activation of each endpoint
     */
    public EndpointController(
            EndpointService endpoints, DirectoryListingService listings, EndpointAccessService activations) {
        this.endpoints = endpoints;
        this.listings = listings;
        this.activations = activations;
    }

    private Map<String, Object> document(AuthenticatedUser caller, Endpoint endpoint) {
        return Documents.endpoint(endpoint, activations.status(caller.name(), endpoint), activations.now());
    }

    /** {@code POST /endpoint}: 201 with the endpoint document; 400 names the field, 409 if taken. */
    @PostMapping("/endpoint")
    @ResponseStatus(HttpStatus.CREATED)
    public Map<String, Object> create(
            @RequestAttribute(AuthenticatedUser.REQUEST_ATTRIBUTE) AuthenticatedUser caller,
            @RequestBody Map<String, Object> body) {
        return document(caller, endpoints.create(caller.name(), body));
    }

    /** {@code GET /endpoint/{id or name}}: the endpoint document, or 404. */
    @GetMapping("/endpoint/{endpoint}")
    public Map<String, Object> show(
            @RequestAttribute(AuthenticatedUser.REQUEST_ATTRIBUTE) AuthenticatedUser caller,
            @PathVariable("endpoint") String endpoint) {
        return document(caller, endpoints.resolve(caller.name(), endpoint, "endpoint_id"));
    }

    /** {@code DELETE /endpoint/{id or name}}: result {@code Deleted}, or 404. */
    @DeleteMapping("/endpoint/{endpoint}")
    public Map<String, Object> delete(
            @RequestAttribute(AuthenticatedUser.REQUEST_ATTRIBUTE) AuthenticatedUser caller,
            @PathVariable("endpoint") String endpoint) {
        endpoints.delete(caller.name(), endpoint);
        return Documents.result("Deleted", "Endpoint deleted successfully");
    }

    /** {@code GET /endpoint_search}: the caller's endpoints matching {@code filter_fulltext}. */
    @GetMapping("/endpoint_search")
    public Map<String, Object> search(
            @RequestAttribute(AuthenticatedUser.REQUEST_ATTRIBUTE) AuthenticatedUser caller,
            @RequestParam(name = "filter_fulltext", required = false) String fulltext,
            @RequestParam(name = "limit", defaultValue = "100") int limit,
            @RequestParam(name = "offset", defaultValue = "0") int offset) {
        Paging.limit(limit, MAX_SEARCH_LIMIT);
        Paging.offset(offset);
        List<Endpoint> all = endpoints.search(caller.name(), fulltext);
        List<Map<String, Object>> page = all.stream()
                .skip(offset)
                .limit(limit)
                .map(e -> document(caller, e))
                .toList();
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("DATA_TYPE", "endpoint_list");
        doc.put("DATA", page);
        doc.put("length", page.size());
        doc.put("limit", limit);
        doc.put("offset", offset);
        doc.put("total", all.size());
        return doc;
    }

    /**
     * {@code GET /operation/endpoint/{id or name}/ls?path=}: the directory listing; 404 if the
     * path is missing, 502 {@code EndpointError} with the server's reply for other GridFTP failures.
     */
    @GetMapping("/operation/endpoint/{endpoint}/ls")
    public Map<String, Object> ls(
            @RequestAttribute(AuthenticatedUser.REQUEST_ATTRIBUTE) AuthenticatedUser caller,
            @PathVariable("endpoint") String endpoint,
            @RequestParam(name = "path", defaultValue = "/") String path) {
        Endpoint target = endpoints.resolve(caller.name(), endpoint, "endpoint_id");
        String directory = ApiPaths.absolute("path", path);
        List<Map<String, Object>> files = listings.list(caller.name(), target, directory).stream()
                .filter(f -> !f.name().equals(".") && !f.name().equals(".."))
                .map(Documents::file)
                .toList();
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("DATA_TYPE", "file_list");
        doc.put("endpoint", target.getCanonicalName());
        doc.put("path", directory.endsWith("/") ? directory : directory + "/");
        doc.put("DATA", files);
        doc.put("length", files.size());
        return doc;
    }
}
