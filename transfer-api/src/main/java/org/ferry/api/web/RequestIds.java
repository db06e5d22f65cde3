package org.ferry.api.web;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Gives every request an id, the {@code request_id} of its answer documents and of its
 * {@code X-Request-Id} answer header, so that a user's report can be matched with the log.
 * Runs first, before authentication, so that 401 answers carry one too.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE)
public class RequestIds extends OncePerRequestFilter {

    /** The request attribute holding the id. */
    public static final String ATTRIBUTE = RequestIds.class.getName();
    /** The answer header. */
    public static final String HEADER = "X-Request-Id";

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String id = fresh();
        request.setAttribute(ATTRIBUTE, id);
        response.setHeader(HEADER, id);
        chain.doFilter(request, response);
    }

    /** @return the request's id (a fresh one if the filter did not run) */
    public static String of(HttpServletRequest request) {
        Object id = request.getAttribute(ATTRIBUTE);
        return id != null ? id.toString() : fresh();
    }

    /**
     * @return 16 random hex digits: an id to find a request in the log, not a secret, so no
     *     SecureRandom (whose shared lock held 32 polling clients' requests up to tens of ms)
     */
    private static String fresh() {
        return HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong());
    }

    /** @return the request path without the context path, as documents show it */
    public static String resource(HttpServletRequest request) {
        return request.getRequestURI().substring(request.getContextPath().length());
    }
}
