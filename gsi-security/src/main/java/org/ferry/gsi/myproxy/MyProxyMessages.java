package org.ferry.gsi.myproxy;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Encoding and parsing of MYPROXYv2 text messages (myproxy {@code PROTOCOL} appendix A;
 * reference section 6): LF-separated {@code KEY=value} lines, requests NUL-terminated.
 */
final class MyProxyMessages {
    static final int GET = 0;
    private static final String TRUSTED_CERTS = "TRUSTED_CERTS=";
    private static final String FILEDATA = "FILEDATA_";

    private MyProxyMessages() {}

    /**
     * Builds a GET request. The passphrase goes straight from chars to bytes, never through a
     * String, so the caller can wipe both.
     *
     * @return the request bytes; the caller must zero them after sending
     */
    static byte[] getRequest(String username, char[] passphrase, long lifetimeSeconds) throws CharacterCodingException {
        return getRequest(username, passphrase, lifetimeSeconds, false);
    }

    /**
     * As {@link #getRequest(String, char[], long)}, asking for the server's trust roots too
     * ({@code TRUSTED_CERTS=1}, what {@code myproxy-logon -T} sends).
     *
     * @return the request bytes; the caller must zero them after sending
     */
    static byte[] getRequest(String username, char[] passphrase, long lifetimeSeconds, boolean trustRoots)
            throws CharacterCodingException {
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
        out.writeBytes(("\nLIFETIME=" + lifetimeSeconds + "\n" + (trustRoots ? "TRUSTED_CERTS=1\n" : ""))
                .getBytes(StandardCharsets.UTF_8));
        out.write(0);
        byte[] request = out.toByteArray();
        // ByteArrayOutputStream's internal buffer also held the passphrase: overwrite it.
        out.reset();
        out.writeBytes(new byte[request.length]);
        return request;
    }

    /**
     * A parsed server response.
     *
     * @param code 0 OK, 1 error, 2 authorization required
     * @param errors the ERROR lines
     * @param trustRoots the files of {@code TRUSTED_CERTS=} and their {@code FILEDATA_<name>=} lines
     *     (base64), empty when the server sent none
     */
    record Response(int code, List<String> errors, Map<String, byte[]> trustRoots) {
        Response(int code, List<String> errors) {
            this(code, errors, Map.of());
        }
    }

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
        List<String> trusted = new ArrayList<>();
        Map<String, String> fileData = new HashMap<>();
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
            } else if (line.startsWith(TRUSTED_CERTS)) {
                for (String name : line.substring(TRUSTED_CERTS.length()).split(",")) {
                    if (!name.isBlank()) {
                        trusted.add(name.strip());
                    }
                }
            } else if (line.startsWith(FILEDATA)) {
                int eq = line.indexOf('=');
                if (eq > FILEDATA.length()) {
                    fileData.put(line.substring(FILEDATA.length(), eq), line.substring(eq + 1));
                }
            }
        }
        if (code == null) {
            throw new MyProxyException("MyProxy server reply has no RESPONSE line");
        }
        Map<String, byte[]> roots = new TreeMap<>();
        for (String name : trusted) {
            String data = fileData.get(name);
            if (data == null) {
                throw new MyProxyException("MyProxy server listed trust root " + name + " without its FILEDATA");
            }
            try {
                roots.put(name, Base64.getMimeDecoder().decode(data.strip()));
            } catch (IllegalArgumentException e) {
                throw new MyProxyException("MyProxy server sent trust root " + name + " that is not base64");
            }
        }
        return new Response(code, errors, roots);
    }

    private static void checkValue(String what, String value) {
        if (value.isEmpty() || value.indexOf('\n') >= 0 || value.indexOf('\0') >= 0) {
            throw new IllegalArgumentException(what + " must be non-empty without newline or NUL characters");
        }
    }
}
