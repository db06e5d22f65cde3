package org.ferry.cli;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/** What the CLI reads of an SSH private key file itself: only whether it is encrypted. */
final class SshKeyFiles {

    private static final String OPENSSH_BEGIN = "-----BEGIN OPENSSH PRIVATE KEY-----";
    private static final String OPENSSH_END = "-----END OPENSSH PRIVATE KEY-----";
    private static final byte[] OPENSSH_MAGIC = "openssh-key-v1\0".getBytes(StandardCharsets.US_ASCII);

    private SshKeyFiles() {}

    /**
     * @param text a private key file's text
     * @return true for a key encrypted with a passphrase: an OpenSSH key whose cipher is not
     *     {@code none} (OpenSSH's PROTOCOL.key), or a PEM key marked {@code ENCRYPTED} (RFC 1421
     *     {@code Proc-Type: 4,ENCRYPTED}, or PKCS #8 {@code ENCRYPTED PRIVATE KEY}); false for
     *     anything else, which the service judges
     */
    static boolean isEncrypted(String text) {
        int begin = text.indexOf(OPENSSH_BEGIN);
        int end = text.indexOf(OPENSSH_END);
        if (begin < 0 || end < begin) {
            return text.contains("ENCRYPTED");
        }
        try {
            byte[] blob = Base64.getMimeDecoder().decode(text.substring(begin + OPENSSH_BEGIN.length(), end));
            ByteBuffer in = ByteBuffer.wrap(blob);
            for (byte b : OPENSSH_MAGIC) {
                if (in.get() != b) {
                    return false;
                }
            }
            int length = in.getInt();
            if (length < 0 || length > in.remaining()) {
                return false;
            }
            byte[] cipher = new byte[length];
            in.get(cipher);
            return !"none".equals(new String(cipher, StandardCharsets.US_ASCII));
        } catch (IllegalArgumentException | BufferUnderflowException e) {
            return false;
        }
    }
}
