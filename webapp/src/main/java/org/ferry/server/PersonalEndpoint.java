package org.ferry.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.SecureRandom;
import org.ferry.api.auth.AdminBootstrap;
import org.ferry.api.identity.TokenHasher;
import org.ferry.api.service.EndpointService;
import org.ferry.mover.server.GridFtpServer;
import org.ferry.mover.server.pi.GridFtpServerConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * The personal endpoint: when {@code ferry.personal-endpoint.root} names a directory, an embedded
 * Ferry GridFTP server serves it on 127.0.0.1:{@code ferry.personal-endpoint.port} (default 2811;
 * 0 picks a free port) for user {@code ferry} with a password made fresh on every start, and the
 * endpoint {@code admin#personal} is created or updated to log in with it.
 */
@Component
@ConditionalOnExpression("'${ferry.personal-endpoint.root:}' != ''")
public class PersonalEndpoint implements SmartLifecycle {

    /** Name part of the endpoint's canonical name. */
    public static final String ENDPOINT_NAME = "personal";
    /** The GridFTP user the service logs in as. */
    public static final String USER = "ferry";

    private static final Logger log = LoggerFactory.getLogger(PersonalEndpoint.class);

    private final Path root;
    private final int port;
    private final EndpointService endpoints;
    private GridFtpServer server;

    /**
     * @param root directory to serve (created if missing)
     * @param port control port; 0 for any free port
     * @param endpoints where {@code admin#personal} is registered
     */
    public PersonalEndpoint(
            @Value("${ferry.personal-endpoint.root}") String root,
            @Value("${ferry.personal-endpoint.port:2811}") int port,
            EndpointService endpoints) {
        this.root = Path.of(root).toAbsolutePath();
        this.port = port;
        this.endpoints = endpoints;
    }

    @Override
    public synchronized void start() {
        if (!endpoints.allowsClearText()) {
            throw new IllegalStateException("ferry.personal-endpoint.root serves a clear-text (ftp://) endpoint, which"
                    + " ferry.endpoints.allow-clear-text=false forbids: unset one of the two");
        }
        String password = TokenHasher.newToken(new SecureRandom());
        byte[] expected = password.getBytes(StandardCharsets.UTF_8);
        try {
            Files.createDirectories(root);
            server = GridFtpServer.start(GridFtpServerConfig.loopback(root)
                    .withPort(port)
                    .withAuthenticator((user, given) -> USER.equals(user)
                            && given != null
                            && MessageDigest.isEqual(expected, given.getBytes(StandardCharsets.UTF_8))));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the personal endpoint on port " + port, e);
        }
        String url = "ftp://127.0.0.1:" + server.port();
        endpoints.register(AdminBootstrap.ADMIN, ENDPOINT_NAME, url, USER, password);
        log.info("Personal endpoint {}#{} serves {} at {}", AdminBootstrap.ADMIN, ENDPOINT_NAME, root, url);
    }

    @Override
    public synchronized void stop() {
        if (server != null) {
            server.close();
            server = null;
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return server != null;
    }

    /** Starts before the mover and stops after it, so resumed tasks find their endpoint up. */
    @Override
    public int getPhase() {
        return DEFAULT_PHASE - 1000;
    }

    /** @return the control port the server listens on, or -1 when stopped */
    public synchronized int port() {
        return server == null ? -1 : server.port();
    }
}
