package org.ferry.api.security;

import java.util.List;
import org.ferry.api.identity.Caller;
import org.springframework.security.authentication.AbstractAuthenticationToken;
import org.springframework.security.core.authority.SimpleGrantedAuthority;

/**
 * An authenticated API request: the account it acts as, how it proved that, and the external
 * subject it proved (the certificate identity's DN, the JWT's subject) where there is one.
 * Authorities: {@code ROLE_USER}, plus {@code ROLE_ADMIN} for admins.
 */
public final class FerryAuthentication extends AbstractAuthenticationToken {

    private static final long serialVersionUID = 1L;

    private final Caller caller;
    private final AuthenticationMethod method;
    private final String subject;

    /**
     * @param caller the account
     * @param method how it was proven
     * @param subject the DN or JWT subject, or null
     */
    public FerryAuthentication(Caller caller, AuthenticationMethod method, String subject) {
        super(
                caller.admin()
                        ? List.of(new SimpleGrantedAuthority("ROLE_USER"), new SimpleGrantedAuthority("ROLE_ADMIN"))
                        : List.of(new SimpleGrantedAuthority("ROLE_USER")));
        this.caller = caller;
        this.method = method;
        this.subject = subject;
        setAuthenticated(true);
    }

    /** @return the account acting */
    public Caller caller() {
        return caller;
    }

    /** @return how the request was authenticated */
    public AuthenticationMethod method() {
        return method;
    }

    /** @return the certificate DN or JWT subject, or null */
    public String subject() {
        return subject;
    }

    @Override
    public Object getCredentials() {
        return "";
    }

    @Override
    public Object getPrincipal() {
        return caller.name();
    }
}
