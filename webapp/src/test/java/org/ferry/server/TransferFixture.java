package org.ferry.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import javax.sql.DataSource;
import org.ferry.mover.server.GridFtpServer;
import org.ferry.mover.server.pi.GridFtpServerConfig;
import org.ferry.testing.ContainerEngine;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * What one test class of the service runs against, of its own: a FERRY_HOME and personal endpoint
 * directory, its database ({@link TestDatabase}), and two real Ferry GridFTP servers on loopback
 * over fresh directories (site A for user {@code alice}, password {@code pw-a}; site B for
 * {@code bob}, {@code pw-b}), optionally a third serving site A at a capped rate. Registered as a
 * static {@code @RegisterExtension} field of the concrete test class, so that the same scenarios
 * (an abstract class) run once per database, each run on its own directories: the servers start
 * before the class's tests and stop after them.
 */
final class TransferFixture implements BeforeAllCallback, AfterAllCallback {

    private final String name;
    private final TestDatabase database;
    private final Path home;
    private final Path personal;
    private final Path siteA;
    private final Path siteB;
    private long throttledRate;
    private String jdbcUrl;

    private GridFtpServer serverA;
    private GridFtpServer serverB;
    private GridFtpServer throttledA;

    private TransferFixture(String name, TestDatabase database) {
        this.name = name;
        this.database = database;
        String prefix = "ferry-" + name + "-" + database.name().toLowerCase(Locale.ROOT) + "-";
        this.home = TestHomes.create(prefix + "home");
        this.personal = TestHomes.create(prefix + "personal");
        this.siteA = TestHomes.create(prefix + "a");
        this.siteB = TestHomes.create(prefix + "b");
    }

    /**
     * @param name the scenarios' short name (lower case letters): names the directories and the
     *     PostgreSQL database
     * @param database where the service keeps its state
     * @return a fixture for one test class
     */
    static TransferFixture on(String name, TestDatabase database) {
        return new TransferFixture(name, database);
    }

    /**
     * Adds a third server over site A whose data channels are capped, so that a transfer from it
     * is still moving when the test acts.
     *
     * @param bytesPerSecond the cap
     * @return this fixture
     */
    TransferFixture withThrottledSiteA(long bytesPerSecond) {
        this.throttledRate = bytesPerSecond;
        return this;
    }

    /**
     * The service's home, personal endpoint and database: call from the test class's
     * {@code @DynamicPropertySource} method.
     *
     * @param registry the class's dynamic properties
     */
    void register(DynamicPropertyRegistry registry) {
        registry.add("ferry.home", home::toString);
        registry.add("ferry.personal-endpoint.root", personal::toString);
        registry.add("ferry.personal-endpoint.port", () -> "0");
        database.register(registry, this::jdbcUrl);
    }

    /** The PostgreSQL database is made when the service first asks for it, once. */
    private synchronized String jdbcUrl() {
        if (jdbcUrl == null) {
            jdbcUrl = SharedPostgres.createDatabase(name);
        }
        return jdbcUrl;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws IOException {
        if (database == TestDatabase.POSTGRESQL) {
            ContainerEngine.require(); // PostgreSQL runs in a container
        }
        serverA = GridFtpServer.start(GridFtpServerConfig.loopback(siteA)
                .withAuthenticator((user, password) -> "alice".equals(user) && "pw-a".equals(password)));
        serverB = GridFtpServer.start(GridFtpServerConfig.loopback(siteB)
                .withAuthenticator((user, password) -> "bob".equals(user) && "pw-b".equals(password)));
        if (throttledRate > 0) {
            throttledA = GridFtpServer.start(GridFtpServerConfig.loopback(siteA)
                    .withAuthenticator((user, password) -> "alice".equals(user) && "pw-a".equals(password))
                    .withDataRateLimit(throttledRate));
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        for (GridFtpServer server : new GridFtpServer[] {serverA, serverB, throttledA}) {
            if (server != null) {
                server.close();
            }
        }
    }

    /**
     * The admin's API client for the service under test, after checking that the service keeps its
     * state in this fixture's database.
     *
     * @param port the service's HTTP port
     * @param dataSource the service's data source
     * @return a client with the admin's token from {@link #home()}
     * @throws IOException if the token cannot be read
     */
    ApiClient adminApi(int port, DataSource dataSource) throws IOException {
        database.assertUsedBy(dataSource);
        return new ApiClient(port, Files.readString(home.resolve("token")).trim());
    }

    /**
     * Registers the two sites as the admin's endpoints {@code admin#PREFIX-a} (alice) and
     * {@code admin#PREFIX-b} (bob), unless the service has them from an earlier test of the class.
     *
     * @return true if they were registered now
     */
    boolean registerSites(ApiClient api, String prefix) {
        if (api.get("/v0.10/endpoint/admin%23" + prefix + "-b").status() != 404) {
            return false;
        }
        createEndpoint(api, endpoint("admin#" + prefix + "-a", urlA(), "alice", "pw-a"));
        createEndpoint(api, endpoint("admin#" + prefix + "-b", urlB(), "bob", "pw-b"));
        return true;
    }

    /**
     * Creates an endpoint through {@code POST /v0.10/endpoint}.
     *
     * @throws IllegalStateException if the service refuses it
     */
    static void createEndpoint(ApiClient api, Map<String, Object> document) {
        ApiClient.Answer created = api.post("/v0.10/endpoint", document);
        if (created.status() / 100 != 2) {
            throw new IllegalStateException("endpoint not created: " + created.status() + " " + created.body());
        }
    }

    /**
     * @param user the server login, or null for an endpoint without one (GSI)
     * @return an endpoint document for {@code POST /v0.10/endpoint}
     */
    static Map<String, Object> endpoint(String name, String url, String user, String password) {
        Map<String, Object> doc = new HashMap<>();
        doc.put("DATA_TYPE", "endpoint");
        doc.put("canonical_name", name);
        doc.put("url", url);
        if (user != null) {
            doc.put("username", user);
            doc.put("password", password);
        }
        return doc;
    }

    /** @return where the service keeps its state */
    TestDatabase database() {
        return database;
    }

    /** @return the service's FERRY_HOME (the admin's token is in {@code token}) */
    Path home() {
        return home;
    }

    /** @return site A's directory */
    Path siteA() {
        return siteA;
    }

    /** @return site B's directory */
    Path siteB() {
        return siteB;
    }

    /** @return {@code ftp://127.0.0.1:PORT} of site A (alice) */
    String urlA() {
        return "ftp://127.0.0.1:" + serverA.port();
    }

    /** @return {@code ftp://127.0.0.1:PORT} of site B (bob) */
    String urlB() {
        return "ftp://127.0.0.1:" + serverB.port();
    }

    /** @return {@code ftp://127.0.0.1:PORT} of the throttled server over site A (alice) */
    String throttledUrlA() {
        if (throttledA == null) {
            throw new IllegalStateException("no throttled server: withThrottledSiteA was not called");
        }
        return "ftp://127.0.0.1:" + throttledA.port();
    }
}
