package org.ferry.api.security;

import org.ferry.api.identity.Caller;
import org.springframework.core.MethodParameter;
import org.springframework.security.authentication.AuthenticationCredentialsNotFoundException;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.bind.support.WebDataBinderFactory;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.method.support.ModelAndViewContainer;

/** Gives controller methods a {@link Caller} parameter: the authenticated request's account. */
public final class CallerArgumentResolver implements HandlerMethodArgumentResolver {

    @Override
    public boolean supportsParameter(MethodParameter parameter) {
        return parameter.getParameterType().equals(Caller.class);
    }

    @Override
    public Object resolveArgument(
            MethodParameter parameter,
            ModelAndViewContainer container,
            NativeWebRequest request,
            WebDataBinderFactory binders) {
        return current().caller();
    }

    /**
     * @return the current request's authentication
     * @throws AuthenticationCredentialsNotFoundException outside an authenticated API request
     */
    public static FerryAuthentication current() {
        Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
        if (authentication instanceof FerryAuthentication ferry) {
            return ferry;
        }
        throw new AuthenticationCredentialsNotFoundException("The request is not authenticated");
    }
}
