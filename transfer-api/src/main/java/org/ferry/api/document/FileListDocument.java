package org.ferry.api.document;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * {@code GET /operation/endpoint/{id}/ls}: one page of a directory listing (GridFTP has no
 * paging; Ferry lists the whole directory and cuts the page).
 *
 * @param dataType {@code file_list}
 * @param endpoint the endpoint's canonical name
 * @param path the directory, ending in {@code /}
 * @param absolutePath the same (Ferry paths are absolute)
 * @param renameSupported true
 * @param symlinkSupported false: Ferry never creates links
 * @param data the page's entries
 * @param length entries on this page
 * @param limit the page size asked for
 * @param offset the first entry of this page
 * @param total entries after filtering
 * @param hasNextPage whether entries follow this page
 */
public record FileListDocument(
        @JsonProperty("DATA_TYPE") String dataType,
        String endpoint,
        String path,
        @JsonProperty("absolute_path") String absolutePath,
        @JsonProperty("rename_supported") boolean renameSupported,
        @JsonProperty("symlink_supported") boolean symlinkSupported,
        @JsonProperty("DATA") List<FileDocument> data,
        int length,
        int limit,
        int offset,
        int total,
        @JsonProperty("has_next_page") boolean hasNextPage) {}
