package org.ferry.api.security;

import org.ferry.api.identity.AccountService;
import org.springframework.security.authentication.AuthenticationProvider;
import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.Authentication;

/** Authenticates HTTP Basic (user name and password) against the local accounts. */
public final class PasswordAuthenticationProvider implements AuthenticationProvider {

    private final AccountService accounts;

    /** @param accounts the accounts */
    public PasswordAuthenticationProvider(AccountService accounts) {
        this.accounts = accounts;
    }

    @Override
    public Authentication authenticate(Authentication authentication) {
        String name = authentication.getName();
        Object credentials = authentication.getCredentials();
        return accounts.authenticate(name, credentials == null ? "" : credentials.toString())
                .map(caller -> new FerryAuthentication(caller, AuthenticationMethod.PASSWORD, null))
                .orElseThrow(() -> new BadCredentialsException(
                        "Wrong user name or password, or the account has no password or is disabled"));
    }

    @Override
    public boolean supports(Class<?> authentication) {
        return UsernamePasswordAuthenticationToken.class.isAssignableFrom(authentication);
    }
}
