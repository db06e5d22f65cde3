package org.ferry.mover.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A man in the middle of one control connection, for negative tests of the protected control
 * channel (RFC 2228 section 5.3): listens on 127.0.0.1 and an ephemeral port, relays the client's
 * bytes to the server untouched and the server's reply lines back, and, once armed, flips one bit
 * in the TLS record inside the next protected reply line ({@code 631}/{@code 632}/{@code 633}),
 * as an attacker on the path would. Data connections do not pass through it.
 */
public final class TamperingRelay implements AutoCloseable {

    private final ServerSocket listener;
    private final int serverPort;
    private final AtomicBoolean armed = new AtomicBoolean();
    private volatile Socket client;
    private volatile Socket server;

    /**
     * @param serverPort the control port of the server on 127.0.0.1
     * @throws IOException if no port can be bound
     */
    public TamperingRelay(int serverPort) throws IOException {
        this.serverPort = serverPort;
        this.listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        Thread accept = new Thread(this::relayOne, "tampering-relay");
        accept.setDaemon(true);
        accept.start();
    }

    /** @return the port clients connect to instead of the server's */
    public int port() {
        return listener.getLocalPort();
    }

    /** Alters the next protected reply line the server sends. */
    public void tamperWithNextProtectedReply() {
        armed.set(true);
    }

    private void relayOne() {
        try {
            client = listener.accept();
            server = new Socket(InetAddress.getLoopbackAddress(), serverPort);
            Thread up = new Thread(() -> copy(client, server), "tampering-relay-up");
            up.setDaemon(true);
            up.start();
            BufferedReader replies =
                    new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.ISO_8859_1));
            OutputStream toClient = client.getOutputStream();
            String line;
            while ((line = replies.readLine()) != null) {
                if (line.matches("63[123][ -].+") && armed.getAndSet(false)) {
                    line = line.substring(0, 4) + flipOneBit(line.substring(4));
                }
                toClient.write((line + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
                toClient.flush();
            }
        } catch (IOException e) {
            // a side closed: the relay ends with it
        } finally {
            close();
        }
    }

    /** Flips one bit in the middle of the record, past its 5-byte header: in the ciphertext. */
    private static String flipOneBit(String base64) {
        byte[] record = Base64.getDecoder().decode(base64);
        record[5 + (record.length - 5) / 2] ^= 0x01;
        return Base64.getEncoder().encodeToString(record);
    }

    private static void copy(Socket from, Socket to) {
        try (InputStream in = from.getInputStream()) {
            OutputStream out = to.getOutputStream();
            byte[] buffer = new byte[8192];
            int n;
            while ((n = in.read(buffer)) >= 0) {
                out.write(buffer, 0, n);
                out.flush();
            }
        } catch (IOException e) {
            // a side closed
        }
    }

    @Override
    public void close() {
        for (AutoCloseable c : new AutoCloseable[] {listener, client, server}) {
            try {
                if (c != null) {
                    c.close();
                }
            } catch (Exception e) {
                // closing anyway
            }
        }
    }
}
