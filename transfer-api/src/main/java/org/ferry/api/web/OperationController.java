package org.ferry.api.web;

import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import org.ferry.api.document.FileDocument;
import org.ferry.api.document.FileListDocument;
import org.ferry.api.document.MkdirRequest;
import org.ferry.api.document.RenameRequest;
import org.ferry.api.document.ResultDocument;
import org.ferry.api.domain.Endpoint;
import org.ferry.api.error.InvalidRequestException;
import org.ferry.api.error.NotSupportedException;
import org.ferry.api.identity.Caller;
import org.ferry.api.service.ApiPaths;
import org.ferry.api.service.EndpointService;
import org.ferry.api.service.FileListings;
import org.ferry.api.service.FileOperationService;
import org.ferry.api.service.Paging;
import org.ferry.mover.protocol.FileInfo;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The synchronous file operations ({@code /operation/endpoint/{id}/ls|mkdir|rename|stat}),
 * each answered after the endpoint's GridFTP server did it.
 */
@RestController
@RequestMapping(path = "/v0.10/operation/endpoint/{endpoint}", produces = "application/json")
public class OperationController {

    /** Largest {@code limit} of a listing (Globus: 100,000). */
    public static final int MAX_LS_LIMIT = 100_000;

    private final EndpointService endpoints;
    private final FileOperationService files;

    /**
     * @param endpoints the endpoint registry
     * @param files the GridFTP operations
     */
    public OperationController(EndpointService endpoints, FileOperationService files) {
        this.endpoints = endpoints;
        this.files = files;
    }

    /**
     * {@code GET ls?path&show_hidden&filter&orderby&limit&offset}: one page of the directory's
     * entries (see {@link FileListings} for the filter and order syntax).
     */
    @GetMapping("/ls")
    public FileListDocument ls(
            Caller caller,
            @PathVariable("endpoint") String endpoint,
            @RequestParam(name = "path", required = false) String path,
            @RequestParam(name = "show_hidden", required = false) String showHidden,
            @RequestParam(name = "filter", required = false) String firstFilter,
            @RequestParam(name = "orderby", required = false) String orderby,
            @RequestParam(name = "limit", required = false) Integer limit,
            @RequestParam(name = "offset", required = false) Integer offset,
            @RequestParam(name = "local_user", required = false) String localUser,
            HttpServletRequest request) {
        refuseLocalUser(localUser);
        // every filter parameter as sent: a List parameter would be split at the commas of values
        String[] filters = request.getParameterValues("filter");
        List<String> filter = filters == null ? List.of() : List.of(filters);
        Endpoint target = endpoints.resolve(caller, endpoint, "endpoint_id");
        int size = Paging.limit(limit, MAX_LS_LIMIT, MAX_LS_LIMIT);
        int first = Paging.offset(offset);
        String directory = ApiPaths.absolute("path", path == null || path.isEmpty() ? defaultDirectory(target) : path);
        List<FileInfo> entries = FileListings.apply(
                files.list(caller.name(), target, directory), flag("show_hidden", showHidden, true), filter, orderby);
        List<FileDocument> page =
                entries.stream().skip(first).limit(size).map(ApiDocuments::file).toList();
        String shown = directory.endsWith("/") ? directory : directory + "/";
        return new FileListDocument(
                "file_list",
                target.getCanonicalName(),
                shown,
                shown,
                true,
                false,
                page,
                page.size(),
                size,
                first,
                entries.size(),
                first + page.size() < entries.size());
    }

    /** {@code GET stat?path}: the file document of one path. */
    @GetMapping("/stat")
    public FileDocument stat(
            Caller caller,
            @PathVariable("endpoint") String endpoint,
            @RequestParam(name = "path") String path,
            @RequestParam(name = "local_user", required = false) String localUser) {
        refuseLocalUser(localUser);
        Endpoint target = endpoints.resolve(caller, endpoint, "endpoint_id");
        return ApiDocuments.file(files.stat(caller.name(), target, ApiPaths.absolute("path", path)));
    }

    /** {@code POST mkdir {path}}: {@code mkdir_result} with code {@code DirectoryCreated}. */
    @PostMapping("/mkdir")
    public ResultDocument mkdir(
            Caller caller,
            @PathVariable("endpoint") String endpoint,
            @RequestBody MkdirRequest body,
            HttpServletRequest request) {
        if (body.dataType() != null && !"mkdir".equals(body.dataType())) {
            throw new InvalidRequestException("DATA_TYPE", "DATA_TYPE must be 'mkdir'");
        }
        refuseLocalUser(body.localUser());
        Endpoint target = endpoints.resolve(caller, endpoint, "endpoint_id");
        files.mkdir(caller.name(), target, ApiPaths.absolute("path", body.path()));
        return new ResultDocument(
                "mkdir_result",
                "DirectoryCreated",
                "The directory was created successfully",
                RequestIds.resource(request),
                RequestIds.of(request));
    }

    /** {@code POST rename {old_path, new_path}}: result {@code FileRenamed}. */
    @PostMapping("/rename")
    public ResultDocument rename(
            Caller caller,
            @PathVariable("endpoint") String endpoint,
            @RequestBody RenameRequest body,
            HttpServletRequest request) {
        if (body.dataType() != null && !"rename".equals(body.dataType())) {
            throw new InvalidRequestException("DATA_TYPE", "DATA_TYPE must be 'rename'");
        }
        refuseLocalUser(body.localUser());
        Endpoint target = endpoints.resolve(caller, endpoint, "endpoint_id");
        files.rename(
                caller.name(),
                target,
                ApiPaths.absolute("old_path", body.oldPath()),
                ApiPaths.absolute("new_path", body.newPath()));
        return new ResultDocument(
                "result",
                "FileRenamed",
                "File or directory renamed successfully",
                RequestIds.resource(request),
                RequestIds.of(request));
    }

    private static String defaultDirectory(Endpoint endpoint) {
        return endpoint.getDefaultDirectory() == null ? "/" : endpoint.getDefaultDirectory();
    }

    private static void refuseLocalUser(String localUser) {
        if (localUser != null && !localUser.isEmpty()) {
            throw new NotSupportedException(
                    "local_user", "local_user: local user mapping is a GCSv5 feature Ferry lacks");
        }
    }

    /** Globus booleans in queries: {@code 1}/{@code 0}, {@code true}/{@code false}. */
    private static boolean flag(String field, String value, boolean absent) {
        if (value == null || value.isEmpty()) {
            return absent;
        }
        return switch (value.toLowerCase(java.util.Locale.ROOT)) {
            case "1", "true" -> true;
            case "0", "false" -> false;
            default -> throw new InvalidRequestException(field, field + " must be 1, 0, true or false");
        };
    }
}
