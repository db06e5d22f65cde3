package org.ferry.api.identity;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;

/** Makes bearer tokens and the SHA-256 hashes under which they are stored. */
public final class TokenHasher {

    private static final int TOKEN_BYTES = 32;

    private TokenHasher() {}

    /** @return lowercase hex SHA-256 of the token's UTF-8 bytes */
    public static String hash(String token) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every JRE", e);
        }
    }

    /**
     * @param random source of randomness (a {@link SecureRandom})
     * @return 32 random bytes, base64url without padding (43 characters)
     */
    public static String newToken(SecureRandom random) {
        byte[] bytes = new byte[TOKEN_BYTES];
        random.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
