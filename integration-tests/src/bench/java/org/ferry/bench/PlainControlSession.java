package org.ferry.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * A bare FTP control connection over a plain socket, so that thousands of them cost the benchmark
 * a socket and a small buffer each, not a client library's machinery.
 */
final class PlainControlSession implements AutoCloseable {

    private static final int TIMEOUT_MILLIS = 60_000;

    private final Socket socket;
    private final BufferedReader in;
    private final OutputStream out;

    private PlainControlSession(Socket socket) throws IOException {
        this.socket = socket;
        this.in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII), 512);
        this.out = socket.getOutputStream();
    }

    /**
     * Connects, reads the 220 banner and logs in anonymously.
     *
     * @throws IOException if the connection fails or a reply is not the expected one
     */
    static PlainControlSession login(String host, int port) throws IOException {
        Socket socket = new Socket();
        try {
            socket.connect(new InetSocketAddress(host, port), TIMEOUT_MILLIS);
            socket.setSoTimeout(TIMEOUT_MILLIS);
            socket.setTcpNoDelay(true);
            PlainControlSession session = new PlainControlSession(socket);
            session.expect(220);
            session.send("USER anonymous");
            session.expect(331);
            session.send("PASS bench@");
            session.expect(230);
            return session;
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
    }

    /** Sends one command line (CRLF added). */
    void send(String command) throws IOException {
        out.write((command + "\r\n").getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    /**
     * Reads one reply, multi-line ones included (RFC 959 section 4.2).
     *
     * @throws IOException if the connection ends or the code differs from {@code code}
     */
    void expect(int code) throws IOException {
        String line = in.readLine();
        if (line == null || line.length() < 4) {
            throw new IOException("connection closed or short reply: " + line);
        }
        String prefix = line.substring(0, 3);
        if (line.charAt(3) == '-') {
            String last;
            do {
                last = in.readLine();
                if (last == null) {
                    throw new IOException("connection closed inside a multi-line reply");
                }
            } while (!(last.startsWith(prefix) && last.length() > 3 && last.charAt(3) == ' '));
        }
        if (!prefix.equals(Integer.toString(code))) {
            throw new IOException("expected " + code + ", got: " + line);
        }
    }

    @Override
    public void close() {
        try {
            send("QUIT");
        } catch (IOException ignored) {
            // closing anyway
        }
        try {
            socket.close();
        } catch (IOException ignored) {
            // nothing left to release
        }
    }
}
