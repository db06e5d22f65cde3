package org.ferry.mover.server.pi;

/**
 * Checks clear-text USER/PASS logins (RFC 959 section 4.1.1). Called off the event loop, possibly
 * from several sessions at once: implementations must be thread-safe and may block (bcrypt).
 * Anonymous logins are decided by {@link GridFtpServerConfig#anonymousAllowed()}, not here.
 */
@FunctionalInterface
public interface Authenticator {

    /**
     * @param user the name from USER
     * @param password the text from PASS (may be empty)
     * @return true to log the user in (230), false to refuse (530)
     */
    boolean authenticate(String user, String password);

    /**
     * @return true if this authenticator refuses every login whatever the password: then, without
     *     anonymous access, the server offers no clear-text login at all (globus-gridftp-server
     *     with neither {@code -aa} nor {@code -password-file})
     */
    default boolean refusesEveryone() {
        return false;
    }

    /** @return an authenticator that refuses everyone (anonymous logins may still be allowed) */
    static Authenticator denyAll() {
        return new Authenticator() {
            @Override
            public boolean authenticate(String user, String password) {
                return false;
            }

            @Override
            public boolean refusesEveryone() {
                return true;
            }
        };
    }
}
