package org.ferry.server.pages;

import jakarta.servlet.http.HttpServletResponse;
import org.ferry.api.error.ConflictException;
import org.ferry.api.error.FerryException;
import org.ferry.api.error.NotFoundException;
import org.ferry.api.error.PermissionDeniedException;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.ui.Model;
import org.springframework.validation.BindException;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;

/**
 * The pages' failures as a page, not the API's JSON error document (the API's advice answers for
 * everything else): a task or endpoint the user cannot see is 404, another's public endpoint 403.
 */
@ControllerAdvice(basePackageClasses = PageErrors.class)
@Order(Ordered.HIGHEST_PRECEDENCE)
public class PageErrors {

    /** A domain failure: the error page with its message and the matching status. */
    @ExceptionHandler(FerryException.class)
    public String domain(FerryException e, HttpServletResponse response, Model model) {
        int status;
        if (e instanceof NotFoundException) {
            status = 404;
        } else if (e instanceof PermissionDeniedException) {
            status = 403;
        } else if (e instanceof ConflictException) {
            status = 409;
        } else {
            status = 400;
        }
        return problem(status, e.getMessage(), response, model);
    }

    /** A form or address the page cannot read (a bad number, a missing field). */
    @ExceptionHandler({
        BindException.class,
        MissingServletRequestParameterException.class,
        MethodArgumentTypeMismatchException.class
    })
    public String unreadable(Exception e, HttpServletResponse response, Model model) {
        return problem(400, "The form or address could not be read: " + e.getMessage(), response, model);
    }

    private static String problem(int status, String message, HttpServletResponse response, Model model) {
        response.setStatus(status);
        model.addAttribute("status", status);
        model.addAttribute("message", message);
        return "problem";
    }
}
