package org.ferry.gsi.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Seals secrets with AES-256-GCM (NIST SP 800-38D) under one key: a fresh 96-bit random nonce per
 * seal, a 128-bit tag, and the caller's context (which record the secret belongs to, e.g.
 * {@code endpoint-password:<endpoint id>}) as additional authenticated data, so a sealed value
 * copied to another record does not open there.
 *
 * <p>A sealed value is text: {@code fc1:<key id>:<base64 of nonce, ciphertext and tag>}, where the
 * key id is the first 8 hex digits of the key's SHA-256; a value sealed under another key fails
 * with a message naming both ids instead of a bare tag mismatch. The key itself never appears in
 * a message or in {@link #toString()}. Thread-safe.
 */
public final class CredentialCipher {

    /** Bytes of an AES-256 key. */
    public static final int KEY_BYTES = 32;

    private static final String PREFIX = "fc1";
    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;

    private final SecretKeySpec key;
    private final String keyId;
    private final SecureRandom random = new SecureRandom();

    private CredentialCipher(byte[] keyBytes) {
        if (keyBytes.length != KEY_BYTES) {
            throw new IllegalArgumentException(
                    "the credential key must be " + KEY_BYTES + " bytes (256 bits), was " + keyBytes.length);
        }
        this.key = new SecretKeySpec(keyBytes, "AES");
        this.keyId = keyId(keyBytes);
        Arrays.fill(keyBytes, (byte) 0);
    }

    /**
     * @param base64Key 32 bytes in standard base64 (44 characters), e.g. from
     *     {@code openssl rand -base64 32}; surrounding blanks are ignored
     * @return a cipher under that key
     * @throws IllegalArgumentException if the text is not base64 or not 32 bytes (the message
     *     never repeats the text)
     */
    public static CredentialCipher fromBase64(String base64Key) {
        byte[] bytes;
        try {
            bytes = Base64.getDecoder().decode(base64Key.strip());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "the credential key is not base64 (make one with: openssl rand -base64 32)");
        }
        return new CredentialCipher(bytes);
    }

    /**
     * Reads a key file (the base64 key on its first line), creating it with a fresh random key and
     * mode 0600 when it does not exist yet.
     *
     * @param file the key file
     * @return a cipher under the file's key
     * @throws IOException if the file cannot be read or created
     * @throws IllegalArgumentException if the file does not hold a base64 key of 32 bytes
     */
    public static CredentialCipher fromKeyFile(Path file) throws IOException {
        if (!Files.exists(file)) {
            byte[] fresh = new byte[KEY_BYTES];
            new SecureRandom().nextBytes(fresh);
            String text = Base64.getEncoder().encodeToString(fresh) + "\n";
            Arrays.fill(fresh, (byte) 0);
            try {
                Files.createDirectories(file.toAbsolutePath().getParent());
                if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
                    Files.createFile(
                            file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
                } else {
                    Files.createFile(file);
                }
                Files.writeString(file, text, StandardCharsets.US_ASCII);
            } catch (FileAlreadyExistsException raced) {
                // another process made it first: use theirs
            }
        }
        String content = Files.readString(file, StandardCharsets.US_ASCII);
        try {
            return fromBase64(content.lines().findFirst().orElse(""));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
        }
    }

    /** @return the key's id: the first 8 hex digits of its SHA-256 */
    public String keyId() {
        return keyId;
    }

    /**
     * @param plaintext the secret; not modified (the caller clears it)
     * @param context what the secret belongs to; the same text must be given to {@link #open}
     * @return the sealed value, {@code fc1:<key id>:<base64>}
     */
    public String seal(byte[] plaintext, String context) {
        byte[] nonce = new byte[NONCE_BYTES];
        random.nextBytes(nonce);
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, nonce));
            cipher.updateAAD(context.getBytes(StandardCharsets.UTF_8));
            byte[] sealed = cipher.doFinal(plaintext);
            ByteBuffer out = ByteBuffer.allocate(NONCE_BYTES + sealed.length);
            out.put(nonce).put(sealed);
            return PREFIX + ":" + keyId + ":" + Base64.getEncoder().encodeToString(out.array());
        } catch (GeneralSecurityException e) {
            // AES/GCM is in every JDK: this is a broken runtime, not bad input
            throw new IllegalStateException("AES-GCM is not available: " + e.getMessage(), e);
        }
    }

    /**
     * @param plaintext the secret as text (UTF-8)
     * @param context what the secret belongs to
     * @return the sealed value
     */
    public String seal(String plaintext, String context) {
        byte[] bytes = plaintext.getBytes(StandardCharsets.UTF_8);
        try {
            return seal(bytes, context);
        } finally {
            Arrays.fill(bytes, (byte) 0);
        }
    }

    /**
     * @param sealed a value from {@link #seal}
     * @param context the context it was sealed with
     * @return the secret; clear it when done
     * @throws GeneralSecurityException if the value is malformed, was sealed under another key (the
     *     message names both key ids), or was altered or sealed for another context
     */
    public byte[] open(String sealed, String context) throws GeneralSecurityException {
        String[] parts = sealed.split(":", 3);
        if (parts.length != 3 || !parts[0].equals(PREFIX)) {
            throw new GeneralSecurityException("not a sealed credential (expected " + PREFIX + ":<key id>:<data>)");
        }
        if (!parts[1].equals(keyId)) {
            throw new GeneralSecurityException("credential was sealed under key " + parts[1]
                    + ", but the configured key is " + keyId + " (was ferry.credentials key changed?)");
        }
        byte[] data;
        try {
            data = Base64.getDecoder().decode(parts[2]);
        } catch (IllegalArgumentException e) {
            throw new GeneralSecurityException("sealed credential is not base64");
        }
        if (data.length < NONCE_BYTES + TAG_BITS / 8) {
            throw new GeneralSecurityException("sealed credential is truncated");
        }
        Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
        cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, data, 0, NONCE_BYTES));
        cipher.updateAAD(context.getBytes(StandardCharsets.UTF_8));
        try {
            return cipher.doFinal(data, NONCE_BYTES, data.length - NONCE_BYTES);
        } catch (AEADBadTagException e) {
            throw new GeneralSecurityException(
                    "sealed credential does not verify: altered, or sealed for another record");
        }
    }

    /**
     * @param sealed a value from {@link #seal(String, String)}
     * @param context the context it was sealed with
     * @return the secret text
     * @throws GeneralSecurityException as {@link #open(String, String)}
     */
    public String openString(String sealed, String context) throws GeneralSecurityException {
        byte[] bytes = open(sealed, context);
        try {
            return new String(bytes, StandardCharsets.UTF_8);
        } finally {
            Arrays.fill(bytes, (byte) 0);
        }
    }

    private static String keyId(byte[] keyBytes) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(keyBytes);
            return HexFormat.of().formatHex(digest, 0, 4);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("SHA-256 is not available", e);
        }
    }

    @Override
    public String toString() {
        return "CredentialCipher[AES-256-GCM, key " + keyId + "]";
    }
}
