package org.ferry.mover.client;

import java.io.IOException;
import java.security.PublicKey;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.sshd.client.SshClient;
import org.apache.sshd.client.session.ClientSession;

/**
 * Reads an SSH server's host key without logging in (RFC 4253 section 8: the key exchange shows
 * it; this side then refuses it and disconnects), so that a service can pin the key of an
 * {@code sshftp://} endpoint when the endpoint is created and trust nothing else afterwards.
 */
public final class SshHostKeys {

    private SshHostKeys() {}

    /**
     * @param host the SSH server's host name or address
     * @param port its port
     * @param timeout for the connection and the key exchange
     * @return the host key the server presented
     * @throws IOException if the server cannot be reached or shows no key within {@code timeout}
     */
    public static PublicKey fetch(String host, int port, Duration timeout) throws IOException {
        AtomicReference<PublicKey> seen = new AtomicReference<>();
        SshClient client = SshClient.setUpDefaultClient();
        client.setServerKeyVerifier((session, address, key) -> {
            seen.set(key);
            return false; // seen, not trusted: no login follows
        });
        client.start();
        try (ClientSession session =
                client.connect("ferry-host-key", host, port).verify(timeout).getSession()) {
            try {
                session.auth().verify(timeout);
            } catch (IOException e) {
                // expected: the key was refused on purpose
            }
        } catch (IOException e) {
            if (seen.get() == null) {
                throw new IOException(
                        "cannot read the SSH host key of " + host + ":" + port + ": " + e.getMessage(), e);
            }
        } finally {
            client.stop();
        }
        if (seen.get() == null) {
            throw new IOException("the SSH server " + host + ":" + port + " showed no host key");
        }
        return seen.get();
    }
}
