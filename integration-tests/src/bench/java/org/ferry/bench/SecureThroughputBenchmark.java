package org.ferry.bench;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.ferry.gsi.ca.OnlineCa;
import org.ferry.gsi.context.GsiEngines;
import org.ferry.gsi.credential.GsiCredential;
import org.ferry.gsi.credential.PemFiles;
import org.ferry.gsi.proxy.ProxyRequest;
import org.ferry.gsi.proxy.factory.BcProxyFactory;
import org.ferry.gsi.trust.CanlChainValidator;
import org.ferry.gsi.trust.OpensslTrustDirectory;
import org.ferry.mover.client.GridFtpClient;
import org.ferry.mover.client.GsiClientSecurity;
import org.ferry.mover.client.TransferOptions;
import org.ferry.mover.data.security.ProtectionLevel;

/**
 * Secure data channels (issue 4 deliverable 7; GFD.020 "DCAU", RFC 2228 section 3 (PROT); Vardoyan et al.,
 * "Characterizing throughput bottlenecks for secure GridFTP transfers"): memory-to-memory gsiftp
 * downloads at PROT C (DCAU A, clear data), S and P, each at p = 1 (stream mode, as globus-url-copy
 * without {@code -p}), 2, 4 and 8 (MODE E), Ferry's client against the packaged
 * {@code ferry-gridftp --gsi} beside globus-url-copy against globus-gridftp-server in GSI mode, side
 * by side in one run. Both pairs use the same CA, host credential, user proxy and tmpfs source (a
 * sparse file: AES-GCM costs the same for zeros and for random bytes). Ferry runs one TLS engine
 * per data connection on its own event loop, so PROT S/P should grow with p while there are cores;
 * the rows PROT P at p >= 2 carry the target: Ferry at least {@link #PRIVATE_PARALLEL_TARGET} times
 * the Globus pair. Each figure is the best of {@code --repeat} runs, the order of the two sides
 * turned each round (the machine's other load comes and goes), and includes the login, as a
 * globus-url-copy run's does.
 */
final class SecureThroughputBenchmark {

    private static final Pattern LISTENING = Pattern.compile("Server listening at [^:\\s]+:(\\d+)");
    private static final String USER_CN = "Bench User";

    /** Parallel streams per row: p=1 is stream mode, the others MODE E. */
    static final List<Integer> PARALLELISM = List.of(1, 2, 4, 8);

    /** Warm-up passes over {C, P} x {stream, p=4} before measuring. */
    private static final int WARMUP_ROUNDS = 3;

    /** Required Ferry / globus ratio for PROT P with p >= 2 (issue 4 deliverable 7). */
    static final double PRIVATE_PARALLEL_TARGET = 1.5;

    private final BenchOptions options;
    private final ResultTable table;

    SecureThroughputBenchmark(BenchOptions options, ResultTable table) {
        this.options = options;
        this.table = table;
    }

    /** Runs the benchmark and adds its rows. */
    void run() throws IOException, InterruptedException, GeneralSecurityException {
        GsiEngines.ignoreServerNameIndication(); // before this JVM's first TLS handshake, if still possible
        long bytes = Math.max(64L << 20, options.memoryBytes() / 8); // TLS runs are slower: an eighth
        Path dir = options.memoryDirectory().resolve("secure");
        Files.createDirectories(dir);
        Files.setPosixFilePermissions(options.memoryDirectory(), PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path source = dir.resolve("zero");
        try (RandomAccessFile raf = new RandomAccessFile(source.toFile(), "rw")) {
            raf.setLength(0);
            raf.setLength(bytes);
        }
        Files.setPosixFilePermissions(source, PosixFilePermissions.fromString("rw-r--r--"));
        Path pki = options.outputDirectory().resolve("secure-pki");
        deleteTree(pki);
        Files.createDirectories(pki);
        OnlineCa ca = OnlineCa.create("/O=Grid/OU=Bench/CN=Bench CA", pki.resolve("ca"), 2048);
        GsiCredential host = ca.issueHostCredential("host/localhost", ca.newSetupKey());
        PemFiles.writeCertificates(host.chain(), pki.resolve("hostcert.pem"));
        PemFiles.writePrivateKey(host.privateKey(), pki.resolve("hostkey.pem"));
        KeyPairGenerator gen = KeyPairGenerator.getInstance("RSA");
        gen.initialize(2048);
        KeyPair pair = gen.generateKeyPair();
        Instant now = Instant.now();
        var userCert = ca.issuer()
                .issue(
                        ca.subjectFor(USER_CN),
                        pair.getPublic(),
                        now.minusSeconds(300),
                        now.plus(Duration.ofDays(1)),
                        List.of());
        GsiCredential proxy = new BcProxyFactory()
                .createProxy(new GsiCredential(pair.getPrivate(), List.of(userCert)), ProxyRequest.impersonation());
        PemFiles.writeCredential(proxy, pki.resolve("x509up"));
        Files.writeString(pki.resolve("grid-mapfile"), "\"" + proxy.identity() + "\" gsuser\n");
        Files.setPosixFilePermissions(pki, PosixFilePermissions.fromString("rwxr-xr-x"));
        Map<String, String> serverEnv = Map.of(
                "X509_CERT_DIR",
                ca.trustDirectory().toString(),
                "X509_USER_CERT",
                pki.resolve("hostcert.pem").toString(),
                "X509_USER_KEY",
                pki.resolve("hostkey.pem").toString(),
                "GRIDMAP",
                pki.resolve("grid-mapfile").toString());
        Path logs = options.outputDirectory().resolve("logs");
        Files.createDirectories(logs);
        String size = Rates.size(bytes);
        try (CanlChainValidator validator = new CanlChainValidator(ca.trustDirectory());
                Server ferry = Server.start(ferryCommand(dir), serverEnv, logs.resolve("ferry-secure.log"));
                Server globus = Server.start(
                        List.of(
                                GlobusServer.PROGRAM,
                                "-p",
                                "0",
                                "-control-interface",
                                "127.0.0.1",
                                "-data-interface",
                                "127.0.0.1",
                                "-d",
                                "error",
                                "-disable-usage-stats"),
                        serverEnv,
                        logs.resolve("globus-secure.log"));
                GridFtpClient client = new GridFtpClient(
                        Duration.ofSeconds(120),
                        GsiClientSecurity.of(proxy, validator, OpensslTrustDirectory.load(ca.trustDirectory())))) {
            String ferryUrl = "gsiftp://localhost:" + ferry.port;
            // JIT warm-up of both Ferry JVMs (a server and a mover run for days) on the login, clear and
            // TLS paths, stream and MODE E: C2 still compiled for a third of the CPU after four runs
            // (JFR); and one globus run, so that its libraries are in the page cache too. Not reported.
            for (int round = 0; round < WARMUP_ROUNDS; round++) {
                for (ProtectionLevel level : List.of(ProtectionLevel.CLEAR, ProtectionLevel.PRIVATE)) {
                    for (TransferOptions mode : List.of(TransferOptions.STREAM, TransferOptions.extendedBlock(4))) {
                        FerryTransfers.download(
                                client, ferryUrl, "/zero", Path.of("/dev/null"), mode.withProtection(level));
                    }
                }
            }
            globusGigabits(
                    globus.port, source, bytes, TransferOptions.extendedBlock(4), ProtectionLevel.PRIVATE, ca, pki);
            for (ProtectionLevel level : ProtectionLevel.values()) {
                for (int p : PARALLELISM) {
                    TransferOptions mode = p == 1 ? TransferOptions.STREAM : TransferOptions.extendedBlock(p);
                    TransferOptions opts = mode.withProtection(level);
                    double ferryGbits = 0;
                    double globusGbits = 0;
                    for (int round = 0; round < options.repeat(); round++) {
                        if (round % 2 == 1) {
                            globusGbits = Math.max(
                                    globusGbits, globusGigabits(globus.port, source, bytes, mode, level, ca, pki));
                        }
                        ferryGbits = Math.max(ferryGbits, ferryGigabits(client, ferryUrl, opts, bytes));
                        if (round % 2 == 0) {
                            globusGbits = Math.max(
                                    globusGbits, globusGigabits(globus.port, source, bytes, mode, level, ca, pki));
                        }
                    }
                    String flags = (FerryTransfers.globusParallelism(mode) + " " + globusProtection(level)).trim();
                    double target = level == ProtectionLevel.PRIVATE && p >= 2 ? PRIVATE_PARALLEL_TARGET : Double.NaN;
                    table.add(new Result(
                            "secure",
                            "PROT " + level.code() + ", p=" + p + (p == 1 ? " stream" : " MODE E") + ", " + size
                                    + ", best of " + options.repeat(),
                            "Gbit/s",
                            ferryGbits,
                            ("globus-url-copy " + flags).trim(),
                            globusGbits,
                            target,
                            false));
                }
            }
        } finally {
            Files.deleteIfExists(source);
        }
    }

    private static double ferryGigabits(GridFtpClient client, String url, TransferOptions opts, long bytes)
            throws IOException {
        FerryTransfers.Timed timed = FerryTransfers.download(client, url, "/zero", Path.of("/dev/null"), opts);
        if (timed.bytes() != bytes) {
            throw new IllegalStateException("Ferry moved " + timed.bytes() + " of " + bytes + " bytes");
        }
        return Rates.gigabitsPerSecond(timed.bytes(), timed.elapsedNanos());
    }

    private List<String> ferryCommand(Path root) throws IOException {
        Path target = options.repoRoot().resolve("mover-netty").resolve("target");
        try (var files = Files.list(target)) {
            if (files.noneMatch(p -> p.getFileName().toString().endsWith("-all.jar"))) {
                throw new IllegalStateException("no *-all.jar in " + target);
            }
        }
        // bin/ferry-gridftp, as a site runs it: the build's class data sharing archive and JIT
        // settings (FERRY_JAVA_OPTS from the environment overrides them), as FerryServer does
        return List.of(
                options.repoRoot().resolve("bin").resolve("ferry-gridftp").toString(),
                "--port",
                "0",
                "--root",
                root.toString(),
                "--gsi");
    }

    private static String globusProtection(ProtectionLevel level) {
        return switch (level) {
            case CLEAR -> "";
            case SAFE -> "-dcsafe";
            case PRIVATE -> "-dcpriv";
        };
    }

    private static double globusGigabits(
            int port, Path source, long bytes, TransferOptions mode, ProtectionLevel level, OnlineCa ca, Path pki)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("globus-url-copy"));
        if (mode.mode() == TransferOptions.Mode.EXTENDED_BLOCK) {
            command.addAll(List.of("-p", String.valueOf(mode.parallelism())));
        }
        if (level != ProtectionLevel.CLEAR) {
            command.add(globusProtection(level));
        }
        command.addAll(List.of("gsiftp://localhost:" + port + source, "file:///dev/null"));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().put("X509_CERT_DIR", ca.trustDirectory().toString());
        pb.environment().put("X509_USER_PROXY", pki.resolve("x509up").toString());
        long start = System.nanoTime();
        Process process = pb.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(600, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + " failed: " + output);
        }
        return Rates.gigabitsPerSecond(bytes, System.nanoTime() - start);
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

    /** A GridFTP server process whose port is scraped from "Server listening at host:port". */
    private static final class Server implements AutoCloseable {
        final Process process;
        final int port;

        private Server(Process process, int port) {
            this.process = process;
            this.port = port;
        }

        static Server start(List<String> command, Map<String, String> env, Path log)
                throws IOException, InterruptedException {
            ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
            pb.environment().putAll(env);
            Process process = pb.start();
            CompletableFuture<Integer> port = ProcessOutput.followForPort(process, command.get(0), log, LISTENING);
            try {
                return new Server(process, port.get(60, TimeUnit.SECONDS));
            } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                process.destroyForcibly();
                throw new IOException("cannot start " + command + ": " + e.getMessage(), e);
            }
        }

        @Override
        public void close() throws InterruptedException {
            process.destroy();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }
}
