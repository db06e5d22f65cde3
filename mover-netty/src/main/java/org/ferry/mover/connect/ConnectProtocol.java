package org.ferry.mover.connect;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.Properties;
import java.util.TreeMap;

/**
 * What a Ferry Connect agent and its relay say to each other inside the SSH connection the agent
 * dials (RFC 4254 channels; the agent is the SSH client, the relay the server):
 *
 * <ul>
 *   <li>Pairing: user {@value #SETUP_USER}, the setup key's secret as the password (RFC 4252 section
 *       8; sent only after the relay's host key matched the key's fingerprint), then an exec
 *       channel {@value #SETUP_COMMAND} whose standard input is the agent's PKCS#10 request (PEM)
 *       and whose standard output is the answer: {@link #AGENT}, {@link #CERTIFICATE}, {@link
 *       #TRUST_PREFIX}{@code <file name>}, {@link #GRIDMAP}, {@link #FORWARD_HOST}, {@link
 *       #CONTROL_PORT}, or {@link #ERROR} and {@link #REASON}; exit status 0 on success.
 *   <li>Service: user = the agent's id, public key authentication with the key its certificate
 *       certifies; a remote port forward (RFC 4254 section 7.1, {@code tcpip-forward}) of
 *       {@code FORWARD_HOST:CONTROL_PORT} to the agent's GridFTP control channel on loopback, then an
 *       exec channel {@value #HELLO_COMMAND} with {@link #VERSION} and {@link #DIRECTORY_PREFIX}
 *       lines; one more forward of {@code FORWARD_HOST:0} for each passive data listener.
 * </ul>
 *
 * Answers and hellos are {@link Properties} text (ISO 8859-1 with escapes), which carries PEM
 * blocks and any path.
 */
public final class ConnectProtocol {

    /** SSH user name of a pairing session. */
    public static final String SETUP_USER = "setup";
    /** Exec command that redeems the setup key. */
    public static final String SETUP_COMMAND = "ferry-connect-setup";
    /** Exec command that announces a connected agent. */
    public static final String HELLO_COMMAND = "ferry-connect-hello";

    /** The agent's id (its SSH user name and its certificate's {@code CN=connect/<id>}). */
    public static final String AGENT = "agent";
    /** The agent's certificate, PEM. */
    public static final String CERTIFICATE = "certificate";
    /** Prefix of each file of the trust directory (CA certificate, signing policy, CRL). */
    public static final String TRUST_PREFIX = "trust.";
    /** The DNs allowed to log in to the agent, one per line (its grid-mapfile's left column). */
    public static final String GRIDMAP = "gridmap";
    /** The relay address the agent asks its forwarded ports on. */
    public static final String FORWARD_HOST = "forward.host";
    /** The relay port of the agent's control channel. */
    public static final String CONTROL_PORT = "control.port";
    /** A refusal, for the user. */
    public static final String ERROR = "error";
    /** A refusal's kind: UNKNOWN, USED, EXPIRED (setup key), or BAD_REQUEST. */
    public static final String REASON = "reason";
    /** The agent's version. */
    public static final String VERSION = "version";
    /** Prefix of the hello's shared directories: {@code directory.N=name|rw or ro|path}. */
    public static final String DIRECTORY_PREFIX = "directory.";

    /** The agent's certificate names it {@code connect/<id>}: the online CA's service name. */
    public static final String SERVICE_PREFIX = "connect/";

    /** An agent id: 16 lower-case hex digits. */
    public static final String AGENT_ID_PATTERN = "[0-9a-f]{16}";

    /** How many bytes a request or an answer may have: a CSR or a certificate with its trust is a few KiB. */
    public static final int MAX_MESSAGE_BYTES = 256 * 1024;

    private ConnectProtocol() {}

    /**
     * @param in a stream of Properties text, read to its end (at most {@link #MAX_MESSAGE_BYTES})
     * @return the properties
     * @throws IOException on a read failure or a message too long
     */
    public static Properties read(InputStream in) throws IOException {
        byte[] bytes = in.readNBytes(MAX_MESSAGE_BYTES + 1);
        if (bytes.length > MAX_MESSAGE_BYTES) {
            throw new IOException("message longer than " + MAX_MESSAGE_BYTES + " bytes");
        }
        Properties p = new Properties();
        p.load(new StringReader(new String(bytes, StandardCharsets.ISO_8859_1)));
        return p;
    }

    /**
     * @param p properties
     * @return them as Properties text, keys sorted, without the date comment; characters outside
     *     ISO 8859-1 written as backslash-u escapes, so that a DN or a path in any script arrives as it
     *     was sent
     */
    public static byte[] bytes(Properties p) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            Properties sorted = new Properties() {
                @Override
                public java.util.Set<java.util.Map.Entry<Object, Object>> entrySet() {
                    return java.util.Collections.synchronizedSet(
                            new java.util.LinkedHashSet<>(new TreeMap<>(p).entrySet()));
                }
            };
            sorted.putAll(p);
            // store(OutputStream), not store(Writer): only the former escapes what ISO 8859-1 lacks
            sorted.store(out, null);
        } catch (IOException e) {
            throw new IllegalStateException(e); // in memory
        }
        String text = out.toString(StandardCharsets.ISO_8859_1);
        // store writes a date comment first: drop it, messages and files stay comparable
        if (text.startsWith("#")) {
            text = text.substring(text.indexOf('\n') + 1);
        }
        return text.getBytes(StandardCharsets.ISO_8859_1);
    }

    /**
     * @param p properties
     * @param out where to write them; flushed, not closed
     * @throws IOException on a write failure
     */
    public static void write(Properties p, OutputStream out) throws IOException {
        out.write(bytes(p));
        out.flush();
    }
}
