package org.ferry.mover.stripe;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The shared secret of a head node and its data nodes, and the challenge/response over it: the
 * data node sends a random nonce, the head answers HMAC-SHA256(secret, nonce). The secret never
 * crosses the link, and a recorded answer is useless for the next connection. Nothing but a holder
 * of the secret can drive a data node. Immutable; the secret bytes are copied in and never exposed.
 */
public final class LinkAuth {

    /** Nonce length in bytes. */
    public static final int NONCE_BYTES = 32;

    /** Shortest accepted secret, in bytes. */
    public static final int MIN_SECRET_BYTES = 16;

    private final byte[] secret;
    private final SecureRandom random = new SecureRandom();

    /**
     * @param secret the shared secret, at least {@value #MIN_SECRET_BYTES} bytes; copied
     * @throws IllegalArgumentException if it is shorter
     */
    public LinkAuth(byte[] secret) {
        if (secret.length < MIN_SECRET_BYTES) {
            throw new IllegalArgumentException(
                    "the data node secret must have at least " + MIN_SECRET_BYTES + " bytes, had " + secret.length);
        }
        this.secret = secret.clone();
    }

    /**
     * Reads a secret file: its first line, UTF-8, surrounding white space removed.
     *
     * @param file the file
     * @return the authenticator
     * @throws IOException if it cannot be read
     * @throws IllegalArgumentException if the secret is too short
     */
    public static LinkAuth fromFile(Path file) throws IOException {
        String text = Files.readString(file, StandardCharsets.UTF_8).strip();
        int newline = text.indexOf('\n');
        String first = (newline < 0 ? text : text.substring(0, newline)).strip();
        return new LinkAuth(first.getBytes(StandardCharsets.UTF_8));
    }

    /** @return a fresh random nonce of {@value #NONCE_BYTES} bytes */
    public byte[] nonce() {
        byte[] nonce = new byte[NONCE_BYTES];
        random.nextBytes(nonce);
        return nonce;
    }

    /**
     * @param nonce the data node's challenge
     * @return HMAC-SHA256 of the nonce under the secret, 32 bytes
     */
    public byte[] answer(byte[] nonce) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
            return mac.doFinal(nonce);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every Java runtime", e);
        }
    }

    /**
     * @param nonce the challenge sent
     * @param answer the head's answer
     * @return true if the answer proves the secret (constant-time comparison)
     */
    public boolean verify(byte[] nonce, byte[] answer) {
        return MessageDigest.isEqual(answer(nonce), answer);
    }

    @Override
    public String toString() {
        return "LinkAuth[secret of " + secret.length + " bytes]"; // never the secret itself
    }
}
