package org.ferry.gsi.myproxy;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Encoding and parsing of MYPROXYv2 text messages (myproxy {@code PROTOCOL} appendix A;
 * reference section 6): LF-separated {@code KEY=value} lines, requests NUL-terminated.
 */
final class MyProxyMessages {
    static final int GET = 0;

    private MyProxyMessages() {}

    /**
     * Builds a GET request. The passphrase goes straight from chars to bytes, never through a
     * String, so the caller can wipe both.
     *
     * @return the request bytes; the caller must zero them after sending
     */
    static byte[] getRequest(String username, char[] passphrase, long lifetimeSeconds) throws CharacterCodingException {
        checkValue("username", username);
        for (char c : passphrase) {
            if (c == '\n' || c == '\0') {
                throw new IllegalArgumentException("passphrase must not contain newline or NUL characters");
            }
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(("VERSION=MYPROXYv2\nCOMMAND=" + GET + "\nUSERNAME=" + username + "\nPASSPHRASE=")
                .getBytes(StandardCharsets.UTF_8));
        CharsetEncoder encoder = StandardCharsets.UTF_8.newEncoder();
        ByteBuffer pass = encoder.encode(CharBuffer.wrap(passphrase));
        byte[] passBytes = new byte[pass.remaining()];
        pass.get(passBytes);
        Arrays.fill(pass.array(), (byte) 0);
        out.writeBytes(passBytes);
        Arrays.fill(passBytes, (byte) 0);
        out.writeBytes(("\nLIFETIME=" + lifetimeSeconds + "\n").getBytes(StandardCharsets.UTF_8));
        out.write(0);
        byte[] request = out.toByteArray();
        // ByteArrayOutputStream's internal buffer also held the passphrase: overwrite it.
        out.reset();
        out.writeBytes(new byte[request.length]);
        return request;
    }

    /** A parsed server response. */
    record Response(int code, List<String> errors) {}

    /**
     * Parses a response message.
     *
     * @param text the message (NULs allowed, ignored)
     * @return the response
     * @throws MyProxyException if there is no {@code RESPONSE=} line or the version is wrong
     */
    static Response parseResponse(String text) throws MyProxyException {
        Integer code = null;
        List<String> errors = new ArrayList<>();
        for (String line : text.replace("\0", "").split("\n")) {
            if (line.startsWith("VERSION=") && !line.equals("VERSION=MYPROXYv2")) {
                throw new MyProxyException("unsupported MyProxy protocol version: " + line);
            } else if (line.startsWith("RESPONSE=")) {
                try {
                    code = Integer.parseInt(line.substring("RESPONSE=".length()).trim());
                } catch (NumberFormatException e) {
                    throw new MyProxyException("malformed MyProxy response line: " + line);
                }
            } else if (line.startsWith("ERROR=")) {
                errors.add(line.substring("ERROR=".length()));
            }
        }
        if (code == null) {
            throw new MyProxyException("MyProxy server reply has no RESPONSE line");
        }
        return new Response(code, errors);
    }

    private static void checkValue(String what, String value) {
        if (value.isEmpty() || value.indexOf('\n') >= 0 || value.indexOf('\0') >= 0) {
            throw new IllegalArgumentException(what + " must be non-empty without newline or NUL characters");
        }
    }
}
