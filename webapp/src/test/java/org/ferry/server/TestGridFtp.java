package org.ferry.server;

import java.io.IOException;
import java.nio.file.Path;
import org.ferry.mover.server.GridFtpServer;
import org.ferry.mover.server.pi.GridFtpServerConfig;

/** A real Ferry GridFTP server on loopback, anonymous, serving a test's directory. */
final class TestGridFtp implements AutoCloseable {

    private final GridFtpServer server;

    private TestGridFtp(GridFtpServer server) {
        this.server = server;
    }

    static TestGridFtp serve(Path root) throws IOException {
        return serve(root, 0);
    }

    /** @param port the control port, or 0 for any free one */
    static TestGridFtp serve(Path root, int port) throws IOException {
        return new TestGridFtp(GridFtpServer.start(
                GridFtpServerConfig.loopback(root).withPort(port).withAnonymousAllowed(true)));
    }

    /** @return {@code ftp://127.0.0.1:PORT} */
    String url() {
        return "ftp://127.0.0.1:" + server.port();
    }

    @Override
    public void close() {
        server.close();
    }
}
