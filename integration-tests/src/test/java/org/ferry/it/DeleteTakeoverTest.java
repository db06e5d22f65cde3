package org.ferry.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.ferry.mover.server.GridFtpServer;
import org.ferry.mover.server.pi.GridFtpServerConfig;
import org.ferry.testing.PostgresContainers;
import org.ferry.testing.RequiresContainers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * A delete task is leased like a transfer (issue 30): two ferry-server instances on one real
 * PostgreSQL, a delete task of a tree of {@value #FILES} files; the instance that runs it is held
 * in the middle of its walk (a gate on the endpoint's control channel stops forwarding its
 * commands after {@value #HOLD_AFTER} DELEs), then killed with SIGKILL. The other instance takes
 * the task over once the lease runs out, and the task ends SUCCEEDED with the whole tree gone and
 * every file and directory counted once. While the first instance lives and holds the lease, only
 * its control connection deletes anything: two instances never run the task at once. The database
 * is one of the JVM's shared PostgreSQL container.
 */
@RequiresContainers
class DeleteTakeoverTest {

    private static final int FILES = 40;
    private static final int DIRECTORIES = 4;
    private static final int HOLD_AFTER = 10;
    private static final Duration PATIENCE = Duration.ofSeconds(120);

    @Test
    void aDeleteTaskWhoseServerIsKilledIsTakenOverAndEndsRight(@TempDir Path work) throws Exception {
        Path site = Files.createDirectories(work.resolve("site"));
        Path tree = Files.createDirectories(site.resolve("tree"));
        for (int d = 0; d < DIRECTORIES; d++) {
            Path directory = Files.createDirectories(tree.resolve("d" + d));
            for (int f = 0; f < FILES / DIRECTORIES; f++) {
                Files.writeString(directory.resolve("f" + f), "file " + d + "/" + f);
            }
        }
        String postgres = PostgresContainers.createDatabase(PostgresContainers.shared(), "delete_takeover");
        try (GridFtpServer server =
                        GridFtpServer.start(GridFtpServerConfig.loopback(site).withAnonymousAllowed(true));
                ControlGate gate = new ControlGate(server.port(), HOLD_AFTER);
                FerryServerProcess a = instance(work, "a", postgres);
                FerryServerProcess b = instance(work, "b", postgres)) {
            RestClient api = new RestClient(
                    a.apiUrl(), Files.readString(work.resolve("home-a/token")).trim());
            api.post(
                    "/v0.10/endpoint", Map.of("canonical_name", "admin#site", "url", "ftp://127.0.0.1:" + gate.port()));
            String taskId = api.post(
                            "/v0.10/delete",
                            Map.of(
                                    "DATA_TYPE",
                                    "delete",
                                    "endpoint",
                                    "admin#site",
                                    "recursive",
                                    true,
                                    "DATA",
                                    List.of(Map.of("DATA_TYPE", "delete_item", "path", "/tree"))))
                    .get("task_id")
                    .asString();

            assertThat(gate.awaitHeld(PATIENCE)).as("the walk reached the gate").isTrue();
            String runner = leaseOwner(postgres, taskId);
            assertThat(runner).isIn("a", "b");
            FerryServerProcess victim = runner.equals("a") ? a : b;
            FerryServerProcess survivor = victim == a ? b : a;
            assertThat(Files.readString(work.resolve("log-" + runner)))
                    .contains("Delete task " + taskId + " runs on " + runner);
            // while the runner lives, held in its walk, it keeps the lease: the other does not run the task
            assertThat(leaseOwner(postgres, taskId)).isEqualTo(runner);
            assertThat(gate.deletingConnections())
                    .as("connections that deleted")
                    .isEqualTo(1);

            victim.kill();
            gate.release();
            RestClient survivorApi = new RestClient(
                    survivor.apiUrl(),
                    Files.readString(work.resolve("home-a/token")).trim());
            JsonNode ended = awaitEnd(survivorApi, taskId);

            assertThat(ended.get("status").asString()).as(ended.toString()).isEqualTo("SUCCEEDED");
            assertThat(Files.exists(tree)).as("the tree is gone").isFalse();
            String survivorName = runner.equals("a") ? "b" : "a";
            assertThat(Files.readString(work.resolve("log-" + survivorName)))
                    .contains("Delete task " + taskId + " runs on " + survivorName + " (again)");
            JsonNode succeeded = survivorApi
                    .get("/v0.10/task/" + taskId + "/event_list?limit=100")
                    .get("DATA")
                    .get(0);
            assertThat(succeeded.get("code").asString()).isEqualTo("SUCCEEDED");
            assertThat(succeeded.get("details").asString())
                    .as("every file and directory counted once, across both instances")
                    .isEqualTo("{\"files_deleted\":" + FILES + ",\"directories_deleted\":" + (DIRECTORIES + 1) + "}");
        }
    }

    private static FerryServerProcess instance(Path work, String name, String postgres) throws Exception {
        return FerryServerProcess.start(
                Launchers.fromBuild(),
                Files.createDirectories(work.resolve("home-" + name)),
                work.resolve("log-" + name),
                List.of(
                        "--spring.datasource.url=" + postgres,
                        "--ferry.scheduler.instance-id=" + name,
                        "--ferry.transfer.lease=4s"));
    }

    private static String leaseOwner(String postgres, String taskId) throws Exception {
        try (Connection c = DriverManager.getConnection(postgres, PostgresContainers.USER, "");
                PreparedStatement select = c.prepareStatement("select lease_owner from task where id = ?")) {
            select.setObject(1, java.util.UUID.fromString(taskId));
            try (ResultSet row = select.executeQuery()) {
                assertThat(row.next()).isTrue();
                return row.getString(1);
            }
        }
    }

    /** Polls the task (an event the service controls) until it leaves ACTIVE. */
    private static JsonNode awaitEnd(RestClient api, String taskId) throws Exception {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        JsonNode task = api.get("/v0.10/task/" + taskId);
        while (System.nanoTime() < deadline
                && "ACTIVE".equals(task.get("status").asString())) {
            Thread.sleep(200);
            task = api.get("/v0.10/task/" + taskId);
        }
        return task;
    }

    /**
     * A TCP relay in front of an FTP server's control port that counts the DELE commands per
     * client connection and, when the {@code holdAfter + 1}-th of them all arrives, holds it (and
     * everything after it on that connection) until {@link #release}: the client waits for a
     * reply mid-walk, as long as the test wants. Data connections go to the server directly (its
     * passive replies name its own address).
     */
    private static final class ControlGate implements AutoCloseable {

        private final InetSocketAddress target;
        private final ServerSocket listener;
        private final int holdAfter;
        private final AtomicInteger deletes = new AtomicInteger();
        private final Map<Integer, AtomicInteger> deletesPerConnection = new ConcurrentHashMap<>();
        private final AtomicInteger connections = new AtomicInteger();
        private final CountDownLatch held = new CountDownLatch(1);
        private final CountDownLatch released = new CountDownLatch(1);
        private volatile boolean open = true;

        ControlGate(int targetPort, int holdAfter) throws IOException {
            this.target = new InetSocketAddress(InetAddress.getLoopbackAddress(), targetPort);
            this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            this.holdAfter = holdAfter;
            Thread acceptor = new Thread(this::accept, "control-gate");
            acceptor.setDaemon(true);
            acceptor.start();
        }

        int port() {
            return listener.getLocalPort();
        }

        boolean awaitHeld(Duration limit) throws InterruptedException {
            return held.await(limit.toMillis(), TimeUnit.MILLISECONDS);
        }

        void release() {
            released.countDown();
        }

        /** @return how many client connections have sent a DELE that was forwarded */
        long deletingConnections() {
            return deletesPerConnection.values().stream()
                    .filter(n -> n.get() > 0)
                    .count();
        }

        private void accept() {
            while (open) {
                try {
                    Socket client = listener.accept();
                    Socket server = new Socket();
                    server.connect(target);
                    int number = connections.incrementAndGet();
                    deletesPerConnection.put(number, new AtomicInteger());
                    start(() -> commands(client, server, number));
                    start(() -> copy(server, client));
                } catch (IOException e) {
                    return;
                }
            }
        }

        private static void start(Runnable pump) {
            Thread thread = new Thread(pump, "control-gate-pump");
            thread.setDaemon(true);
            thread.start();
        }

        /** Client to server, line by line (FTP commands end in CRLF, RFC 959 section 4.1). */
        private void commands(Socket client, Socket server, int number) {
            try (client;
                    server;
                    BufferedReader in = new BufferedReader(
                            new InputStreamReader(client.getInputStream(), StandardCharsets.UTF_8))) {
                OutputStream out = server.getOutputStream();
                String line;
                while ((line = in.readLine()) != null) {
                    if (line.regionMatches(true, 0, "DELE ", 0, 5)) {
                        if (deletes.incrementAndGet() == holdAfter + 1) {
                            held.countDown();
                            released.await();
                            continue; // the held command is never forwarded: its client died meanwhile
                        }
                        deletesPerConnection.get(number).incrementAndGet();
                    }
                    out.write((line + "\r\n").getBytes(StandardCharsets.UTF_8));
                    out.flush();
                }
            } catch (IOException | InterruptedException e) {
                // a side closed
            }
        }

        private static void copy(Socket from, Socket to) {
            try (InputStream in = from.getInputStream()) {
                in.transferTo(to.getOutputStream());
            } catch (IOException e) {
                // a side closed
            } finally {
                try {
                    to.close();
                } catch (IOException ignored) {
                    // closing anyway
                }
            }
        }

        @Override
        public void close() throws IOException {
            open = false;
            released.countDown();
            listener.close();
        }
    }
}
