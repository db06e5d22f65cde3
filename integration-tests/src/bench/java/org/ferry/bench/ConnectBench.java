package org.ferry.bench;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.ferry.gsi.ca.OnlineCa;
import org.ferry.gsi.context.DelegationMode;
import org.ferry.gsi.credential.GsiCredential;
import org.ferry.gsi.credential.PemFiles;
import org.ferry.gsi.trust.CanlChainValidator;
import org.ferry.gsi.trust.OpensslTrustDirectory;
import org.ferry.mover.client.GridFtpClient;
import org.ferry.mover.client.GridFtpSession;
import org.ferry.mover.client.GridFtpUrl;
import org.ferry.mover.client.GsiClientSecurity;
import org.ferry.mover.client.TransferListener;
import org.ferry.mover.client.TransferOptions;
import org.ferry.mover.data.security.DataChannelAuthentication;

/**
 * Ferry Connect (issue 33 item 6) on loopback: a Ferry Connect agent reached through its relay
 * against a directly reachable {@code ferry-gridftp --gsi} on the same tmpfs, the client (Ferry's,
 * in this JVM, GSI logins with the same credential) and the other endpoint (an anonymous
 * {@code ferry-gridftp}) held fixed. Rows: the control channel's round trip (MLST, one command at a
 * time) through the tunnel and direct, and the extra it costs against the 1 ms allowed; a
 * third-party transfer from the agent (MODE E, p=4) and into it (stream mode: the agent dials the
 * source), each beside the same transfer with the direct server, best of {@code --repeat} rounds
 * in alternating order, target 0.9. The first round after the start is noted too.
 */
final class ConnectBench {

    private static final Pattern LISTENING = Pattern.compile("(?:Server|Relay) listening at [^:\\s]+:(\\d+)");
    private static final Pattern CONNECTED = Pattern.compile("control channel at [^:\\s]+:(\\d+)");
    private static final int COMMANDS = 2000;
    private static final double DATA_TARGET = 0.9;
    private static final double ADDED_MILLIS_ALLOWED = 1.0;

    private final BenchOptions options;
    private final ResultTable table;
    private final List<Process> processes = new ArrayList<>();

    ConnectBench(BenchOptions options, ResultTable table) {
        this.options = options;
        this.table = table;
    }

    void run() throws Exception {
        long bytes = Math.max(256L << 20, options.memoryBytes() / 8);
        Path dir = options.memoryDirectory().resolve("connect");
        deleteTree(dir);
        Path agentData = Files.createDirectories(dir.resolve("agent-data"));
        Path direct = Files.createDirectories(dir.resolve("direct"));
        Path peer = Files.createDirectories(dir.resolve("peer"));
        for (Path root : List.of(agentData, direct, peer)) {
            sparse(root.resolve("big"), bytes);
        }
        Path logs = Files.createDirectories(options.outputDirectory().resolve("logs"));
        Path bin = options.repoRoot().resolve("bin");
        try {
            Path relayDir = dir.resolve("relay");
            start(
                    List.of(
                            bin.resolve("ferry-connect-relay").toString(),
                            "--dir",
                            relayDir.toString(),
                            "--listen",
                            "127.0.0.1:0",
                            "--control-ports",
                            "42900-42999",
                            "--allow-dn",
                            "/O=Ferry/OU=Connect/CN=bench-mover"),
                    logs.resolve("connect-relay.log"),
                    LISTENING);
            String key = Command.check(
                            List.of(
                                    bin.resolve("ferry-connect-relay").toString(),
                                    "--dir",
                                    relayDir.toString(),
                                    "new-key"),
                            120)
                    .output()
                    .lines()
                    .filter(l -> l.startsWith("fc1-"))
                    .findFirst()
                    .orElseThrow();
            Path home = dir.resolve("agent-home");
            Command.check(
                    List.of(
                            bin.resolve("ferry-connect").toString(),
                            "--home",
                            home.toString(),
                            "setup",
                            key,
                            "--dir",
                            "data=" + agentData),
                    120);
            int agentPort = start(
                    List.of(bin.resolve("ferry-connect").toString(), "--home", home.toString()),
                    logs.resolve("connect-agent.log"),
                    CONNECTED);
            String agentId = Files.readAllLines(home.resolve("connect.properties")).stream()
                    .filter(l -> l.startsWith("agent="))
                    .findFirst()
                    .orElseThrow()
                    .substring("agent=".length());

            OnlineCa ca = OnlineCa.open(relayDir.resolve("ca"));
            GsiCredential host = ca.issueHostCredential("host/localhost", ca.newSetupKey());
            PemFiles.writeCertificates(host.chain(), dir.resolve("hostcert.pem"));
            PemFiles.writePrivateKey(host.privateKey(), dir.resolve("hostkey.pem"));
            KeyPairGenerator gen = KeyPairGenerator.getInstance("RSA");
            gen.initialize(2048);
            KeyPair pair = gen.generateKeyPair();
            GsiCredential mover = new GsiCredential(
                    pair.getPrivate(),
                    List.of(ca.issuer()
                            .issue(
                                    ca.subjectFor("bench-mover"),
                                    pair.getPublic(),
                                    Instant.now().minusSeconds(300),
                                    Instant.now().plus(Duration.ofDays(1)),
                                    List.of())));
            Files.writeString(dir.resolve("grid-mapfile"), "\"/O=Ferry/OU=Connect/CN=bench-mover\" root\n");
            int directPort = start(
                    List.of(
                            bin.resolve("ferry-gridftp").toString(),
                            "--port",
                            "0",
                            "--root",
                            direct.toString(),
                            "--host-cert",
                            dir.resolve("hostcert.pem").toString(),
                            "--host-key",
                            dir.resolve("hostkey.pem").toString(),
                            "--ca-dir",
                            ca.trustDirectory().toString(),
                            "--gridmap",
                            dir.resolve("grid-mapfile").toString()),
                    logs.resolve("connect-direct.log"),
                    LISTENING);
            int peerPort = start(
                    List.of(
                            bin.resolve("ferry-gridftp").toString(),
                            "--port",
                            "0",
                            "--root",
                            peer.toString(),
                            "--anonymous"),
                    logs.resolve("connect-peer.log"),
                    LISTENING);

            try (CanlChainValidator validator = new CanlChainValidator(ca.trustDirectory());
                    GridFtpClient client = new GridFtpClient(Duration.ofSeconds(300))) {
                OpensslTrustDirectory trust = OpensslTrustDirectory.load(ca.trustDirectory());
                GsiClientSecurity toAgent = new GsiClientSecurity(
                        mover,
                        validator,
                        trust,
                        DelegationMode.LIMITED,
                        Duration.ofHours(1),
                        "/O=Ferry/OU=Connect/CN=connect/" + agentId);
                GsiClientSecurity toDirect = new GsiClientSecurity(
                        mover, validator, trust, DelegationMode.LIMITED, Duration.ofHours(1), null);
                try (GridFtpSession a = client.open(GridFtpUrl.parse("gsiftp://127.0.0.1:" + agentPort), toAgent);
                        GridFtpSession d = client.open(GridFtpUrl.parse("gsiftp://localhost:" + directPort), toDirect);
                        GridFtpSession p = client.open(GridFtpUrl.parse("ftp://anonymous:x@127.0.0.1:" + peerPort))) {
                    control(a, d);
                    data(a, d, p, peer, agentData, direct, bytes);
                }
            }
        } finally {
            for (Process process : processes) {
                process.destroy();
                process.waitFor(10, TimeUnit.SECONDS);
            }
            deleteTree(dir);
        }
    }

    /** MLST round trips, one at a time: rounds alternate between the agent and the direct server. */
    private void control(GridFtpSession agent, GridFtpSession direct) throws IOException {
        for (int i = 0; i < 500; i++) { // warm-up of both JVMs' paths, not reported
            agent.stat("/data/big");
            direct.stat("/big");
        }
        long agentNanos = 0;
        long directNanos = 0;
        int rounds = 10;
        for (int round = 0; round < rounds; round++) {
            if (round % 2 == 0) {
                agentNanos += timeStats(agent, "/data/big");
                directNanos += timeStats(direct, "/big");
            } else {
                directNanos += timeStats(direct, "/big");
                agentNanos += timeStats(agent, "/data/big");
            }
        }
        double agentMs = agentNanos / 1e6 / (rounds * COMMANDS);
        double directMs = directNanos / 1e6 / (rounds * COMMANDS);
        table.add(new Result(
                "connect",
                "control round trip (MLST), " + rounds * COMMANDS + " commands each",
                "ms",
                agentMs,
                "ferry-gridftp --gsi, direct",
                directMs,
                Double.NaN,
                true));
        table.add(new Result(
                "connect",
                "control round trip added by the tunnel",
                "ms",
                agentMs - directMs,
                "allowed",
                ADDED_MILLIS_ALLOWED,
                1.0,
                true));
    }

    private static long timeStats(GridFtpSession session, String path) throws IOException {
        long start = System.nanoTime();
        for (int i = 0; i < COMMANDS; i++) {
            session.stat(path);
        }
        return System.nanoTime() - start;
    }

    private void data(
            GridFtpSession agent,
            GridFtpSession direct,
            GridFtpSession peer,
            Path peerRoot,
            Path agentRoot,
            Path directRoot,
            long bytes)
            throws IOException {
        TransferOptions modeE =
                TransferOptions.extendedBlock(4).withDataChannelAuthentication(DataChannelAuthentication.NONE);
        TransferOptions stream = TransferOptions.STREAM.withDataChannelAuthentication(DataChannelAuthentication.NONE);
        String size = Rates.size(bytes);
        double[] best = new double[4];
        double[] first = new double[4];
        for (int round = 0; round < options.repeat(); round++) {
            double[] r = new double[4];
            boolean agentFirst = round % 2 == 0;
            for (int side = 0; side < 2; side++) {
                boolean onAgent = (side == 0) == agentFirst;
                if (onAgent) {
                    r[0] = timed(() -> agent.sendTo("/data/big", peer, "/from", modeE, TransferListener.NONE), bytes);
                    Files.delete(peerRoot.resolve("from"));
                    r[2] = timed(() -> peer.sendTo("/big", agent, "/data/into", stream, TransferListener.NONE), bytes);
                    Files.delete(agentRoot.resolve("into"));
                } else {
                    r[1] = timed(() -> direct.sendTo("/big", peer, "/from", modeE, TransferListener.NONE), bytes);
                    Files.delete(peerRoot.resolve("from"));
                    r[3] = timed(() -> peer.sendTo("/big", direct, "/into", stream, TransferListener.NONE), bytes);
                    Files.delete(directRoot.resolve("into"));
                }
            }
            if (round == 0) {
                first = r.clone();
            }
            for (int i = 0; i < 4; i++) {
                best[i] = Math.max(best[i], r[i]);
            }
        }
        table.add(new Result(
                "connect",
                "from the agent, MODE E p=4, " + size + ", best of " + options.repeat(),
                "Gbit/s",
                best[0],
                "ferry-gridftp --gsi, direct",
                best[1],
                DATA_TARGET,
                false));
        table.add(new Result(
                "connect",
                "into the agent, stream mode, " + size + ", best of " + options.repeat(),
                "Gbit/s",
                best[2],
                "ferry-gridftp --gsi, direct",
                best[3],
                DATA_TARGET,
                false));
        table.note(String.format(
                java.util.Locale.ROOT,
                "connect: first round after the start: from the agent %.2f Gbit/s (direct %.2f), into it %.2f (direct %.2f)",
                first[0],
                first[1],
                first[2],
                first[3]));
    }

    private interface Transfer {
        long run() throws IOException;
    }

    private static double timed(Transfer transfer, long bytes) throws IOException {
        long start = System.nanoTime();
        long moved = transfer.run();
        long elapsed = System.nanoTime() - start;
        if (moved != bytes) {
            throw new IllegalStateException("moved " + moved + " of " + bytes + " bytes");
        }
        return Rates.gigabitsPerSecond(bytes, elapsed);
    }

    /** Starts a process and returns the first group of the first output line matching {@code ready}. */
    private int start(List<String> command, Path log, Pattern ready) throws Exception {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        processes.add(process);
        return ProcessOutput.followForPort(process, command.get(0), log, ready).get(120, TimeUnit.SECONDS);
    }

    private static void sparse(Path file, long bytes) throws IOException {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.setLength(bytes);
        }
    }

    private static void deleteTree(Path path) throws IOException {
        if (!Files.exists(path)) {
            return;
        }
        try (var walk = Files.walk(path)) {
            for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
