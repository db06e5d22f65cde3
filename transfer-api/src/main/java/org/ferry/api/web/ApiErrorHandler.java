package org.ferry.api.web;

import jakarta.servlet.http.HttpServletRequest;
import org.ferry.api.document.ErrorDocument;
import org.ferry.api.error.ConflictException;
import org.ferry.api.error.EndpointException;
import org.ferry.api.error.FerryException;
import org.ferry.api.error.InvalidRequestException;
import org.ferry.api.error.NotFoundException;
import org.ferry.api.error.PermissionDeniedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.HttpMediaTypeNotAcceptableException;
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.HttpRequestMethodNotSupportedException;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.servlet.resource.NoResourceFoundException;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DatabindException;
import tools.jackson.databind.exc.UnrecognizedPropertyException;

/**
 * The one place where failures become the Globus error document ({@link ErrorDocument}): the
 * services' domain exceptions by class, Spring MVC's request errors (unreadable JSON, unknown
 * fields, wrong types, missing parameters, wrong methods, unknown paths), and anything
 * unexpected as a logged 500 that shows no internals.
 *
 * <p>Global rather than limited to the API's controllers, because unknown {@code /v0.10/...}
 * paths fail outside any controller; pages added later declare their own advice with a higher
 * precedence.
 */
@RestControllerAdvice
public class ApiErrorHandler {

    private static final Logger log = LoggerFactory.getLogger(ApiErrorHandler.class);

    /** @return the status of a domain exception's class, and its document */
    @ExceptionHandler(FerryException.class)
    public ResponseEntity<ErrorDocument> domain(FerryException e, HttpServletRequest request) {
        return answer(statusOf(e), e.code(), e.getMessage(), e.field(), request);
    }

    /**
     * @param e a domain exception
     * @return its HTTP status
     */
    public static HttpStatus statusOf(FerryException e) {
        if (e instanceof InvalidRequestException) {
            return HttpStatus.BAD_REQUEST;
        }
        if (e instanceof NotFoundException) {
            return HttpStatus.NOT_FOUND;
        }
        if (e instanceof ConflictException) {
            return HttpStatus.CONFLICT;
        }
        if (e instanceof PermissionDeniedException) {
            return HttpStatus.FORBIDDEN;
        }
        if (e instanceof EndpointException) {
            return HttpStatus.BAD_GATEWAY;
        }
        return HttpStatus.INTERNAL_SERVER_ERROR;
    }

    /** @return 400 naming the JSON field that is unknown, of the wrong type, or malformed */
    @ExceptionHandler(HttpMessageNotReadableException.class)
    public ResponseEntity<ErrorDocument> unreadable(HttpMessageNotReadableException e, HttpServletRequest request) {
        Throwable cause = e.getCause();
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof RequestSizeLimit.TooLargeException tooLarge) {
                return answer(
                        HttpStatus.PAYLOAD_TOO_LARGE, RequestSizeLimit.CODE, tooLarge.getMessage(), null, request);
            }
        }
        if (cause instanceof UnrecognizedPropertyException unknown) {
            String field = JsonPaths.of(unknown);
            return answer(
                    HttpStatus.BAD_REQUEST,
                    InvalidRequestException.CODE,
                    "Unknown field " + field + ": Ferry does not know this field of the document",
                    field,
                    request);
        }
        if (cause instanceof DatabindException mismatch && !mismatch.getPath().isEmpty()) {
            String field = JsonPaths.of(mismatch);
            return answer(
                    HttpStatus.BAD_REQUEST,
                    InvalidRequestException.CODE,
                    "Invalid value for " + field + ": " + mismatch.getOriginalMessage(),
                    field,
                    request);
        }
        String message = cause instanceof JacksonException
                ? "Request body is not valid JSON"
                : "Request body is missing or not a JSON document";
        return answer(HttpStatus.BAD_REQUEST, InvalidRequestException.CODE, message, null, request);
    }

    /** @return 400 for a query parameter of the wrong type */
    @ExceptionHandler(MethodArgumentTypeMismatchException.class)
    public ResponseEntity<ErrorDocument> mismatch(MethodArgumentTypeMismatchException e, HttpServletRequest request) {
        return answer(
                HttpStatus.BAD_REQUEST,
                InvalidRequestException.CODE,
                "Invalid value for " + e.getName() + ": '" + e.getValue() + "'",
                e.getName(),
                request);
    }

    /** @return 400 for a missing query parameter */
    @ExceptionHandler(MissingServletRequestParameterException.class)
    public ResponseEntity<ErrorDocument> missing(
            MissingServletRequestParameterException e, HttpServletRequest request) {
        return answer(
                HttpStatus.BAD_REQUEST,
                InvalidRequestException.CODE,
                "Missing parameter " + e.getParameterName(),
                e.getParameterName(),
                request);
    }

    /** @return 415 for a body that is not JSON */
    @ExceptionHandler(HttpMediaTypeNotSupportedException.class)
    public ResponseEntity<ErrorDocument> mediaType(HttpMediaTypeNotSupportedException e, HttpServletRequest request) {
        return answer(
                HttpStatus.UNSUPPORTED_MEDIA_TYPE,
                "ClientError.UnsupportedMediaType",
                "Content-Type must be application/json",
                null,
                request);
    }

    /** @return 406 for an Accept header the API cannot meet */
    @ExceptionHandler(HttpMediaTypeNotAcceptableException.class)
    public ResponseEntity<ErrorDocument> notAcceptable(
            HttpMediaTypeNotAcceptableException e, HttpServletRequest request) {
        return answer(
                HttpStatus.NOT_ACCEPTABLE,
                "ClientError.NotAcceptable",
                "The API answers application/json",
                null,
                request);
    }

    /** @return 405 for a method the path does not support */
    @ExceptionHandler(HttpRequestMethodNotSupportedException.class)
    public ResponseEntity<ErrorDocument> method(HttpRequestMethodNotSupportedException e, HttpServletRequest request) {
        return answer(HttpStatus.METHOD_NOT_ALLOWED, "ClientError.MethodNotAllowed", e.getMessage(), null, request);
    }

    /** @return 404 for an unknown path */
    @ExceptionHandler(NoResourceFoundException.class)
    public ResponseEntity<ErrorDocument> noResource(NoResourceFoundException e, HttpServletRequest request) {
        return answer(HttpStatus.NOT_FOUND, NotFoundException.CODE, "No such resource", null, request);
    }

    /** @return 500 for anything unexpected (logged with the request id, not shown) */
    @ExceptionHandler(Exception.class)
    public ResponseEntity<ErrorDocument> other(Exception e, HttpServletRequest request) {
        log.error(
                "Unexpected failure on {} {} (request {})",
                request.getMethod(),
                request.getRequestURI(),
                RequestIds.of(request),
                e);
        return answer(
                HttpStatus.INTERNAL_SERVER_ERROR,
                "ServerError.InternalError",
                "Internal error (request " + RequestIds.of(request) + ")",
                null,
                request);
    }

    private static ResponseEntity<ErrorDocument> answer(
            HttpStatus status, String code, String message, String field, HttpServletRequest request) {
        return ResponseEntity.status(status)
                .body(ErrorDocument.of(code, message, RequestIds.of(request), RequestIds.resource(request), field));
    }
}
