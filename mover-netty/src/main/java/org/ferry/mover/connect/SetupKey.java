package org.ferry.mover.connect;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.PublicKey;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Objects;
import java.util.zip.CRC32;

/**
 * What a user copies from the service to pair a Ferry Connect agent with its endpoint (Globus
 * Connect's "setup key", seed 000): the one-time secret the online CA redeems, and where and which
 * relay to redeem it at, so that {@code ferry-connect setup KEY} needs nothing else and sends the
 * secret only to the relay whose host key it names (no trust on first use). Printed as
 * {@code fc1-} and base64url (no padding) of: host length (1 byte), host (UTF-8), port (2 bytes),
 * the first 16 bytes of the SHA-256 of the relay's host key ({@link #fingerprint}), the secret (16
 * bytes), and a CRC-32's low 2 bytes over all of it, which turns a mistyped key into a clear error
 * before any connection.
 *
 * @param relayHost the relay's host name or address, as the agent dials it
 * @param relayPort the relay's SSH port
 * @param hostKeyFingerprint 16 bytes, {@link #fingerprint} of the relay's host key
 * @param secret the online CA's key, 32 hex digits
 */
public record SetupKey(String relayHost, int relayPort, byte[] hostKeyFingerprint, String secret) {

    /** What every setup key starts with (format 1). */
    public static final String PREFIX = "fc1-";

    private static final int FINGERPRINT_BYTES = 16;

    /** @throws IllegalArgumentException for a bad host, port, fingerprint or secret */
    public SetupKey {
        Objects.requireNonNull(relayHost, "relayHost");
        byte[] host = relayHost.getBytes(StandardCharsets.UTF_8);
        if (host.length == 0 || host.length > 255) {
            throw new IllegalArgumentException("relay host must be 1..255 bytes");
        }
        if (relayPort < 1 || relayPort > 65535) {
            throw new IllegalArgumentException("relay port out of range: " + relayPort);
        }
        if (hostKeyFingerprint == null || hostKeyFingerprint.length != FINGERPRINT_BYTES) {
            throw new IllegalArgumentException("host key fingerprint must be " + FINGERPRINT_BYTES + " bytes");
        }
        hostKeyFingerprint = hostKeyFingerprint.clone();
        if (secret == null || !secret.matches("[0-9a-f]{32}")) {
            throw new IllegalArgumentException("secret must be 32 hex digits");
        }
    }

    /**
     * @param key a relay's SSH host key
     * @return the first 16 bytes of SHA-256 over its X.509 SubjectPublicKeyInfo encoding
     */
    public static byte[] fingerprint(PublicKey key) {
        try {
            return Arrays.copyOf(MessageDigest.getInstance("SHA-256").digest(key.getEncoded()), FINGERPRINT_BYTES);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 missing from the JDK", e);
        }
    }

    /** @return the key as the user copies it: {@code fc1-...} */
    public String encode() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            byte[] host = relayHost.getBytes(StandardCharsets.UTF_8);
            out.writeByte(host.length);
            out.write(host);
            out.writeShort(relayPort);
            out.write(hostKeyFingerprint);
            out.write(HexFormat.of().parseHex(secret));
        } catch (IOException e) {
            throw new IllegalStateException(e); // in memory
        }
        byte[] body = bytes.toByteArray();
        byte[] all = Arrays.copyOf(body, body.length + 2);
        int crc = crc16(body);
        all[body.length] = (byte) (crc >> 8);
        all[body.length + 1] = (byte) crc;
        return PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(all);
    }

    /**
     * @param text a key as the user pasted it (white space around it ignored)
     * @return the key
     * @throws IllegalArgumentException with a message for the user when it is not a setup key or
     *     was mistyped (its check sum does not match)
     */
    public static SetupKey decode(String text) {
        String key = text == null ? "" : text.strip();
        if (!key.startsWith(PREFIX)) {
            throw new IllegalArgumentException("this is not a Ferry Connect setup key (it starts with " + PREFIX
                    + "); copy it again from the" + " endpoint's page");
        }
        byte[] all;
        try {
            all = Base64.getUrlDecoder().decode(key.substring(PREFIX.length()));
        } catch (IllegalArgumentException e) {
            throw mistyped();
        }
        if (all.length < 3 + FINGERPRINT_BYTES + 16 + 2) {
            throw mistyped();
        }
        byte[] body = Arrays.copyOf(all, all.length - 2);
        int crc = ((all[all.length - 2] & 0xff) << 8) | (all[all.length - 1] & 0xff);
        if (crc != crc16(body)) {
            throw mistyped();
        }
        try (DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(body))) {
            byte[] host = in.readNBytes(in.readUnsignedByte());
            int port = in.readUnsignedShort();
            byte[] fingerprint = in.readNBytes(FINGERPRINT_BYTES);
            byte[] secret = in.readNBytes(16);
            if (secret.length != 16 || in.available() != 0) {
                throw mistyped();
            }
            return new SetupKey(
                    new String(host, StandardCharsets.UTF_8),
                    port,
                    fingerprint,
                    HexFormat.of().formatHex(secret));
        } catch (IOException | IllegalArgumentException e) {
            throw mistyped();
        }
    }

    private static IllegalArgumentException mistyped() {
        return new IllegalArgumentException(
                "setup key is damaged (mistyped or cut short); copy it again from the endpoint's page");
    }

    private static int crc16(byte[] body) {
        CRC32 crc = new CRC32();
        crc.update(ByteBuffer.wrap(body));
        return (int) (crc.getValue() & 0xffff);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof SetupKey k
                && relayHost.equals(k.relayHost)
                && relayPort == k.relayPort
                && Arrays.equals(hostKeyFingerprint, k.hostKeyFingerprint)
                && secret.equals(k.secret);
    }

    @Override
    public int hashCode() {
        return Objects.hash(relayHost, relayPort, Arrays.hashCode(hostKeyFingerprint), secret);
    }

    /** Never shows the secret. */
    @Override
    public String toString() {
        return "setup key for relay " + relayHost + ":" + relayPort;
    }
}
