package org.ferry.mover.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.ferry.gsi.context.DelegationMode;
import org.ferry.gsi.context.GsiContextException;
import org.ferry.gsi.context.GsiSecurityContext;
import org.ferry.gsi.context.SecurityContext;
import org.ferry.gsi.credential.GsiCredential;

/**
 * A GSI control connection driven by hand over a plain socket, for tests that must see or bend
 * the wire (RFC 2228 sections 3-4; RFC 2228 section 3 (AUTH, ADAT) with the GSI mechanism; RFC 2228 sections 3 and 4 (MIC, ENC; 631-633)): {@code AUTH GSSAPI} and the ADAT
 * loop one step at a time with Ferry's initiator context, the gridmap login, and commands sent as
 * {@code ENC <base64>} with their {@code 632} replies unwrapped line by line. Reads the 220 banner
 * on connect; every read waits at most 30 s.
 */
public final class RawGsiSession implements AutoCloseable {

    private static final int READ_TIMEOUT_MILLIS = 30_000;

    private final Socket socket;
    private final BufferedReader in;
    private final OutputStream out;
    private final SecurityContext context;
    private byte[] nextToken;

    /**
     * Connects to 127.0.0.1 and reads the banner.
     *
     * @param port the server's control port
     * @param credential the user's proxy
     * @param pki the trust for the server's host credential ({@code host/localhost})
     * @param delegation what the ADAT exchange delegates
     * @throws IOException if the connection fails or the banner is not 220
     * @throws GsiContextException if the initiator cannot be set up
     */
    public RawGsiSession(int port, GsiCredential credential, GsiTestPki pki, DelegationMode delegation)
            throws IOException, GsiContextException {
        context = GsiSecurityContext.initiator(
                credential, pki.validator(), pki.trust(), "localhost", port, null, delegation, Duration.ofHours(1));
        socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(READ_TIMEOUT_MILLIS);
        in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
        out = socket.getOutputStream();
        assertThat(readLine()).startsWith("220 ");
    }

    /**
     * Sends one line as it is, CRLF added.
     *
     * @param line the command line
     * @throws IOException if writing fails
     */
    public void send(String line) throws IOException {
        out.write((line + "\r\n").getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    /**
     * @return the next line the server sent, without CRLF; null at end of stream
     * @throws IOException if reading fails or times out
     */
    public String readLine() throws IOException {
        return in.readLine();
    }

    /**
     * Sends {@code AUTH GSSAPI} and prepares the first ADAT token.
     *
     * @return the reply line (334 when accepted)
     * @throws IOException if the connection fails
     * @throws GsiContextException if the first token cannot be made
     */
    public String auth() throws IOException, GsiContextException {
        send("AUTH GSSAPI");
        nextToken = context.step(null);
        return readLine();
    }

    /**
     * Sends the next {@code ADAT} token and feeds the token of a {@code 335}/{@code 235 ADAT=} reply
     * to the context.
     *
     * @return the reply line
     * @throws IOException if the connection fails
     * @throws GsiContextException if the server's token is refused
     */
    public String adat() throws IOException, GsiContextException {
        send("ADAT " + Base64.getEncoder().encodeToString(nextToken));
        String line = readLine();
        if (line != null && line.matches("[23]35 ADAT=.*")) {
            nextToken =
                    context.step(Base64.getDecoder().decode(line.substring(9).strip()));
        }
        return line;
    }

    /**
     * {@link #auth()}, then {@link #adat()} until the reply is not 335.
     *
     * @return the last reply line ({@code 235 ...} on success)
     * @throws IOException if the connection fails
     * @throws GsiContextException if a token is refused
     */
    public String authenticate() throws IOException, GsiContextException {
        assertThat(auth()).startsWith("334 ");
        String line;
        do {
            line = adat();
        } while (line != null && line.startsWith("335 "));
        return line;
    }

    /**
     * {@link #authenticate()}, then {@code USER :globus-mapping:} and {@code PASS dummy}, asserting
     * 235, 331 and 230.
     *
     * @throws IOException if the connection fails
     * @throws GsiContextException if authentication fails
     */
    public void login() throws IOException, GsiContextException {
        assertThat(authenticate()).startsWith("235 ");
        assertThat(command("USER :globus-mapping:")).startsWith("331");
        assertThat(command("PASS dummy")).startsWith("230");
    }

    /**
     * @param command a command line without CRLF
     * @return the wrap token of the line with its CRLF: one TLS record
     * @throws GsiContextException if the context cannot protect it
     */
    public byte[] wrap(String command) throws GsiContextException {
        return context.wrap((command + "\r\n").getBytes(StandardCharsets.US_ASCII));
    }

    /**
     * @param command a command line without CRLF
     * @return the {@code ENC} line that carries it, as the client would send it
     * @throws GsiContextException if the context cannot protect it
     */
    public String protect(String command) throws GsiContextException {
        return "ENC " + Base64.getEncoder().encodeToString(wrap(command));
    }

    /**
     * Sends a protected command and reads its protected reply.
     *
     * @param command a command line without CRLF
     * @return the unwrapped reply, lines joined with CRLF
     * @throws IOException if the connection fails or ends
     * @throws GsiContextException if a reply line does not unwrap
     */
    public String command(String command) throws IOException, GsiContextException {
        send(protect(command));
        List<String> lines = new ArrayList<>();
        while (true) {
            String line = readLine();
            if (line == null) {
                throw new IOException("connection closed; reply so far: " + lines);
            }
            lines.add(unwrap(line));
            if (line.charAt(3) == ' ') {
                return String.join("\r\n", lines);
            }
        }
    }

    /**
     * @param line a {@code 631}/{@code 632}/{@code 633} reply line
     * @return the reply line it carries, without CRLF
     * @throws GsiContextException if the token does not unwrap
     */
    public String unwrap(String line) throws GsiContextException {
        assertThat(line).matches("63[123][ -].*");
        return new String(context.unwrap(Base64.getDecoder().decode(line.substring(4))), StandardCharsets.UTF_8)
                .strip();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
