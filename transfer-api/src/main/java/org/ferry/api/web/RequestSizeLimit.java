package org.ferry.api.web;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.ferry.api.document.ErrorDocument;
import org.ferry.api.service.ApiLimits;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;
import tools.jackson.databind.ObjectMapper;

/**
 * Refuses API request bodies larger than {@code ferry.api.max-request-bytes} with 413 and the
 * error document: at once when {@code Content-Length} says so, else (chunked bodies) when the
 * reading passes the limit, which the error advice turns into the same answer.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 1)
public class RequestSizeLimit extends OncePerRequestFilter {

    /** The code of the 413 answer. */
    public static final String CODE = "ClientError.RequestTooLarge";

    private final long maxBytes;
    private final ObjectMapper json;

    /**
     * @param limits the limit
     * @param json writes the 413 body
     */
    public RequestSizeLimit(ApiLimits limits, ObjectMapper json) {
        this.maxBytes = limits.maxRequestBytes();
        this.json = json;
    }

    /** Thrown while reading a body past the limit. */
    public static final class TooLargeException extends IOException {
        private static final long serialVersionUID = 1L;

        TooLargeException(long maxBytes) {
            super("the request body is larger than " + maxBytes + " bytes (ferry.api.max-request-bytes)");
        }
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        return !RequestIds.resource(request).startsWith("/v0.10");
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (request.getContentLengthLong() > maxBytes) {
            response.setStatus(HttpStatus.PAYLOAD_TOO_LARGE.value());
            response.setContentType(MediaType.APPLICATION_JSON_VALUE);
            response.getOutputStream()
                    .write(json.writeValueAsBytes(ErrorDocument.of(
                            CODE,
                            new TooLargeException(maxBytes).getMessage(),
                            RequestIds.of(request),
                            RequestIds.resource(request),
                            null)));
            return;
        }
        chain.doFilter(new Limited(request, maxBytes), response);
    }

    /** A request whose body stream fails past the limit. */
    private static final class Limited extends HttpServletRequestWrapper {
        private final long maxBytes;
        private ServletInputStream stream;

        Limited(HttpServletRequest request, long maxBytes) {
            super(request);
            this.maxBytes = maxBytes;
        }

        @Override
        public ServletInputStream getInputStream() throws IOException {
            if (stream == null) {
                ServletInputStream in = super.getInputStream();
                stream = new ServletInputStream() {
                    private long read;

                    @Override
                    public int read() throws IOException {
                        int b = in.read();
                        if (b >= 0) {
                            count(1);
                        }
                        return b;
                    }

                    @Override
                    public int read(byte[] buffer, int offset, int length) throws IOException {
                        int n = in.read(buffer, offset, length);
                        if (n > 0) {
                            count(n);
                        }
                        return n;
                    }

                    private void count(long n) throws TooLargeException {
                        read += n;
                        if (read > maxBytes) {
                            throw new TooLargeException(maxBytes);
                        }
                    }

                    @Override
                    public boolean isFinished() {
                        return in.isFinished();
                    }

                    @Override
                    public boolean isReady() {
                        return in.isReady();
                    }

                    @Override
                    public void setReadListener(ReadListener listener) {
                        in.setReadListener(listener);
                    }
                };
            }
            return stream;
        }
    }
}
