package org.ferry.api.security;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.ferry.api.document.ErrorDocument;
import org.ferry.api.error.PermissionDeniedException;
import org.ferry.api.web.RequestIds;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.web.access.AccessDeniedHandler;
import tools.jackson.databind.ObjectMapper;

/** Answers an authenticated request that lacks the right: 403 with the error document. */
public final class JsonAccessDeniedHandler implements AccessDeniedHandler {

    private final ObjectMapper json;

    /** @param json writes the body */
    public JsonAccessDeniedHandler(ObjectMapper json) {
        this.json = json;
    }

    @Override
    public void handle(HttpServletRequest request, HttpServletResponse response, AccessDeniedException e)
            throws IOException {
        response.setStatus(HttpStatus.FORBIDDEN.value());
        response.setContentType(MediaType.APPLICATION_JSON_VALUE);
        response.getOutputStream()
                .write(json.writeValueAsBytes(ErrorDocument.of(
                        PermissionDeniedException.CODE,
                        "Permission denied: " + e.getMessage(),
                        RequestIds.of(request),
                        RequestIds.resource(request),
                        null)));
    }
}
