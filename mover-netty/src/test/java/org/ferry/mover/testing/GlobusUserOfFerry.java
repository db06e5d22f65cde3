package org.ferry.mover.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * JUnit extension: before each test, Ferry's server in GSI mode ({@link FerryGsiServer}) and a user
 * of the real Globus tools ({@link GlobusUser}, proxy from grid-proxy-init) that its grid-mapfile
 * maps to a local account; after it, both gone with their directory. Skips the test without
 * globus-url-copy or grid-proxy-init (fails under {@code CI=true}).
 *
 * <pre>
 * &#64;RegisterExtension
 * final GlobusUserOfFerry guc = new GlobusUserOfFerry("GucInterop", "Guc User", "guc");
 * </pre>
 */
public final class GlobusUserOfFerry implements BeforeEachCallback, AfterEachCallback {

    private final String unit;
    private final String userCn;
    private final String account;
    private Path dir;
    private FerryGsiServer ferry;
    private GlobusUser user;

    /**
     * @param unit the OU of the CA, host and user
     * @param userCn the user's CN
     * @param account the local account the grid-mapfile maps the user to
     */
    public GlobusUserOfFerry(String unit, String userCn, String account) {
        this.unit = unit;
        this.userCn = userCn;
        this.account = account;
    }

    @Override
    public void beforeEach(ExtensionContext context) throws Exception {
        dir = Files.createTempDirectory("ferry-gsi-interop-");
        ferry = FerryGsiServer.start(dir, unit, Map.of(userCn, account));
        user = GlobusUser.create(ferry.pki(), userCn, dir.resolve("user"));
    }

    @Override
    public void afterEach(ExtensionContext context) throws IOException {
        if (ferry != null) {
            ferry.close();
        }
        try (Stream<Path> all = Files.walk(dir)) {
            all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    /** @return the running server */
    public FerryGsiServer ferry() {
        return ferry;
    }

    /** @return the Globus tools' user */
    public GlobusUser user() {
        return user;
    }

    /** @return {@code gsiftp://localhost:PORT} without a path, for globus-url-copy URLs */
    public String base() {
        return "gsiftp://localhost:" + ferry.port();
    }
}
