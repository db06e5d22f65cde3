package org.ferry.api.security;

/** Tells the two kinds of bearer token apart. */
final class BearerTokens {

    private BearerTokens() {}

    /** @return whether the token has the three dot-separated parts of a JWS (RFC 7515 section 7.1) */
    static boolean isJwt(String token) {
        int first = token.indexOf('.');
        return first > 0
                && token.indexOf('.', first + 1) > first + 1
                && token.chars().filter(c -> c == '.').count() == 2;
    }
}
