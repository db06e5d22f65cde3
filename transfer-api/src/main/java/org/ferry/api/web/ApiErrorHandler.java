package org.ferry.api.web;

import jakarta.servlet.http.HttpServletRequest;
import java.util.Map;
import org.ferry.api.service.ApiException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.HttpRequestMethodNotSupportedException;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.servlet.resource.NoResourceFoundException;

/**
 * Turns every failure into the API error body. Global rather than limited to the API's
 * controllers, because unknown {@code /v0.10/...} paths fail outside any controller; pages added
 * later declare their own advice with a higher precedence.
 */
@RestControllerAdvice
public class ApiErrorHandler {

    private static final Logger log = LoggerFactory.getLogger(ApiErrorHandler.class);

    /** @return the error the exception describes */
    @ExceptionHandler(ApiException.class)
    public ResponseEntity<Map<String, Object>> api(ApiException e, HttpServletRequest request) {
        return answer(ApiError.of(e.status(), e.code(), e.getMessage(), e.field(), request.getRequestURI()));
    }

    /** @return 400 for a body that is not JSON */
    @ExceptionHandler(HttpMessageNotReadableException.class)
    public ResponseEntity<Map<String, Object>> unreadable(
            HttpMessageNotReadableException e, HttpServletRequest request) {
        return answer(ApiError.of(
                HttpStatus.BAD_REQUEST,
                ApiException.BAD_REQUEST,
                "Request body is not a JSON object",
                null,
                request.getRequestURI()));
    }

    /** @return 400 for a query parameter of the wrong type */
    @ExceptionHandler(MethodArgumentTypeMismatchException.class)
    public ResponseEntity<Map<String, Object>> mismatch(
            MethodArgumentTypeMismatchException e, HttpServletRequest request) {
        return answer(ApiError.of(
                HttpStatus.BAD_REQUEST,
                ApiException.BAD_REQUEST,
                "Invalid value for " + e.getName(),
                e.getName(),
                request.getRequestURI()));
    }

    /** @return 400 for a missing query parameter */
    @ExceptionHandler(MissingServletRequestParameterException.class)
    public ResponseEntity<Map<String, Object>> missing(
            MissingServletRequestParameterException e, HttpServletRequest request) {
        return answer(ApiError.of(
                HttpStatus.BAD_REQUEST,
                ApiException.BAD_REQUEST,
                "Missing parameter " + e.getParameterName(),
                e.getParameterName(),
                request.getRequestURI()));
    }

    /** @return 400 for a wrong content type */
    @ExceptionHandler(HttpMediaTypeNotSupportedException.class)
    public ResponseEntity<Map<String, Object>> mediaType(
            HttpMediaTypeNotSupportedException e, HttpServletRequest request) {
        return answer(ApiError.of(
                HttpStatus.BAD_REQUEST,
                ApiException.BAD_REQUEST,
                "Content-Type must be application/json",
                null,
                request.getRequestURI()));
    }

    /** @return 405 for a method the path does not support */
    @ExceptionHandler(HttpRequestMethodNotSupportedException.class)
    public ResponseEntity<Map<String, Object>> method(
            HttpRequestMethodNotSupportedException e, HttpServletRequest request) {
        return answer(ApiError.of(
                HttpStatus.METHOD_NOT_ALLOWED,
                "ClientError.MethodNotAllowed",
                e.getMessage(),
                null,
                request.getRequestURI()));
    }

    /** @return 404 for an unknown path */
    @ExceptionHandler(NoResourceFoundException.class)
    public ResponseEntity<Map<String, Object>> noResource(NoResourceFoundException e, HttpServletRequest request) {
        return answer(ApiError.of(
                HttpStatus.NOT_FOUND, ApiException.NOT_FOUND, "No such resource", null, request.getRequestURI()));
    }

    /** @return 500 for anything unexpected (logged, not shown) */
    @ExceptionHandler(Exception.class)
    public ResponseEntity<Map<String, Object>> other(Exception e, HttpServletRequest request) {
        log.error("Unexpected failure on {} {}", request.getMethod(), request.getRequestURI(), e);
        return answer(ApiError.of(
                HttpStatus.INTERNAL_SERVER_ERROR,
                "ServerError.InternalError",
                "Internal error",
                null,
                request.getRequestURI()));
    }

    private static ResponseEntity<Map<String, Object>> answer(ApiError error) {
        return ResponseEntity.status(error.status()).body(error.body());
    }
}
