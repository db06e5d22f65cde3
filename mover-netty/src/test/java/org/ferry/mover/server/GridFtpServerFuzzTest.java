package org.ferry.mover.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterProperty;
import net.jqwik.api.lifecycle.BeforeProperty;
import org.ferry.mover.server.pi.GridFtpServerConfig;
import org.ferry.mover.testing.LeakCapture;

/**
 * Property: a real {@link GridFtpServer} (127.0.0.1, port 0, over a temporary root) driven by a raw
 * socket client through random sequences of real verbs with random and malformed arguments
 * (paths with {@code ..}, absolute, NUL, very long, through a symbolic link to a sibling
 * {@code outside} directory or a dangling one; PORT/EPRT/REST/OPTS/MODE/TYPE garbage; lines over
 * the 4096-byte limit; unknown and lower-case verbs), with data connections served when the server
 * answers 150 (random stream or MODE E bytes, some of them corrupt), answers every command with a
 * well-formed RFC 959 reply (section 4.2), keeps the session (NOOP answers 200 after every
 * sequence), changes nothing outside the root (digest of everything beside it before and after),
 * and leaks no buffer. 60 sequences of up to 24 commands, fixed seed.
 */
class GridFtpServerFuzzTest {

    private static final Pattern FIRST_LINE = Pattern.compile("([1-6][0-9]{2})([ -])(.*)", Pattern.DOTALL);
    private static final Pattern PASV = Pattern.compile("\\((\\d+),(\\d+),(\\d+),(\\d+),(\\d+),(\\d+)\\)");
    private static final Pattern EPSV = Pattern.compile("\\(\\|\\|\\|(\\d+)\\|\\)");
    private static final int REPLY_TIMEOUT_MILLIS = 15_000;

    private Path tmp;
    private Path root;
    private GridFtpServer server;
    private LeakCapture leaks;
    private ServerSocket activeListener;
    private ExecutorService dataThreads;
    /** What the active-mode acceptor sends on the next connection the server opens; null: read. */
    private final AtomicReference<byte[]> activeUpload = new AtomicReference<>();

    @BeforeProperty
    void startServer() throws IOException {
        leaks = LeakCapture.open();
        tmp = Files.createTempDirectory("ferry-fuzz");
        root = Files.createDirectory(tmp.resolve("root"));
        Path outside = Files.createDirectory(tmp.resolve("outside"));
        Files.writeString(outside.resolve("secret.txt"), "top secret");
        Files.createDirectory(outside.resolve("dir"));
        Files.createDirectory(root.resolve("sub"));
        Files.writeString(root.resolve("sub/file.txt"), "inside");
        Files.createSymbolicLink(root.resolve("escape"), outside);
        Files.createSymbolicLink(root.resolve("escape-file"), outside.resolve("secret.txt"));
        Files.createSymbolicLink(root.resolve("dangling"), outside.resolve("not-there.txt"));
        Files.createSymbolicLink(root.resolve("sub/up"), Path.of("../../outside"));
        server = GridFtpServer.start(GridFtpServerConfig.loopback(root)
                .withAuthenticator((u, p) -> u.equals("alice") && p.equals("wonderland"))
                .withMarkerInterval(java.time.Duration.ofMillis(100)));
        activeListener = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress());
        dataThreads = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "fuzz-data");
            t.setDaemon(true);
            return t;
        });
        dataThreads.submit(this::acceptActive);
    }

    /** Serves the server's active-mode connections (PORT/EPRT to our listener) until closed. */
    private void acceptActive() {
        try {
            while (true) {
                Socket s = activeListener.accept();
                byte[] upload = activeUpload.get();
                dataThreads.submit(() -> Session.serve(s, upload));
            }
        } catch (IOException e) {
            // listener closed at the end of the property
        }
    }

    @AfterProperty
    void stopServer() throws IOException {
        try {
            server.close();
            activeListener.close();
            dataThreads.shutdownNow();
            leaks.assertNoLeaks();
        } finally {
            leaks.close();
            try (Stream<Path> paths = Files.walk(tmp)) {
                paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    @Property(tries = 60, seed = "20261122")
    void randomCommandSequencesGetWellFormedRepliesAndStayInsideTheRoot(
            @ForAll("sequences") List<String> commands, @ForAll boolean login, @ForAll long seed) throws Exception {
        String outsideBefore = digestOutsideRoot();
        Random random = new Random(seed);
        try (Session session = new Session(random)) {
            assertThat(session.reply().code()).isEqualTo(220);
            if (login) {
                assertThat(session.command("USER alice").code()).isEqualTo(331);
                assertThat(session.command("PASS wonderland").code()).isEqualTo(230);
            }
            for (String command : commands) {
                session.command(command.replace("{port}", Integer.toString(activeListener.getLocalPort()))
                        .replace("{p1}", Integer.toString(activeListener.getLocalPort() >> 8))
                        .replace("{p2}", Integer.toString(activeListener.getLocalPort() & 0xff)));
            }
            assertThat(session.command("NOOP").code())
                    .as("session alive after %s", commands)
                    .isEqualTo(200);
        }
        assertThat(digestOutsideRoot())
                .as("nothing beside the root changed after %s", commands)
                .isEqualTo(outsideBefore);
    }

    /** One reply: its code and raw lines. */
    private record Reply(int code, List<String> lines) {}

    /** A raw control connection that checks reply syntax and serves data connections on 150. */
    private final class Session implements AutoCloseable {
        private final Socket socket;
        private final InputStream in;
        private final OutputStream out;
        private final Random random;
        private int passivePort = -1;
        private boolean modeE;

        Session(Random random) throws IOException {
            this.random = random;
            socket = new Socket("127.0.0.1", server.port());
            socket.setSoTimeout(REPLY_TIMEOUT_MILLIS);
            in = socket.getInputStream();
            out = socket.getOutputStream();
        }

        Reply command(String line) throws Exception {
            String verb = line.split(" ", 2)[0].toUpperCase(java.util.Locale.ROOT);
            boolean upload = verb.equals("STOR") || verb.equals("APPE");
            byte[] payload = upload ? payload() : null;
            out.write(line.getBytes(StandardCharsets.UTF_8));
            out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            activeUpload.set(payload);
            List<Future<?>> data = new ArrayList<>();
            try {
                Reply reply = reply();
                while (reply.code() < 200) { // 150/125, then 111/112 markers, then the final reply
                    if ((reply.code() == 150 || reply.code() == 125) && passivePort > 0) {
                        int port = passivePort;
                        data.add(dataThreads.submit(() -> serve(new Socket("127.0.0.1", port), payload)));
                    }
                    reply = reply();
                }
                track(verb, line, reply);
                // 500 Internal error. is what the dispatcher answers when a handler threw unexpectedly
                assertThat(reply.lines().get(0)).as("reply to %s", line).doesNotContain("Internal error");
                return reply;
            } finally {
                for (Future<?> f : data) {
                    try {
                        f.get(REPLY_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
                    } catch (java.util.concurrent.ExecutionException e) {
                        // a data connection refused or reset by the server is a legitimate outcome
                    }
                }
            }
        }

        /** Remembers the data endpoint and mode the server accepted, to serve its 150s. */
        private void track(String verb, String line, Reply reply) {
            String text = String.join("\n", reply.lines());
            if (reply.code() == 227) {
                Matcher m = PASV.matcher(text);
                if (m.find()) {
                    passivePort = Integer.parseInt(m.group(5)) * 256 + Integer.parseInt(m.group(6));
                }
            } else if (reply.code() == 229) {
                Matcher m = EPSV.matcher(text);
                if (m.find()) {
                    passivePort = Integer.parseInt(m.group(1));
                }
            } else if ((verb.equals("PORT") || verb.equals("EPRT")) && reply.code() == 200) {
                passivePort = -1;
            } else if (verb.equals("MODE") && reply.code() == 200) {
                modeE = line.trim().toUpperCase(java.util.Locale.ROOT).endsWith("E");
            }
        }

        /** Writes {@code payload} (an upload) or reads to EOF (a download), then closes. */
        private static Void serve(Socket s, byte[] payload) throws IOException {
            try (s) {
                s.setSoTimeout(REPLY_TIMEOUT_MILLIS);
                if (payload != null) {
                    s.getOutputStream().write(payload);
                    s.shutdownOutput();
                }
                s.getInputStream().transferTo(OutputStream.nullOutputStream());
            }
            return null;
        }

        /** Stream mode: random bytes. MODE E: valid blocks ending with EOF+EOD, or a corruption. */
        private byte[] payload() {
            byte[] bytes = new byte[random.nextInt(3000)];
            random.nextBytes(bytes);
            if (!modeE) {
                return bytes;
            }
            ByteArrayOutputStream frames = new ByteArrayOutputStream();
            int offset = 0;
            while (offset < bytes.length) {
                int n = Math.min(bytes.length - offset, 1 + random.nextInt(1000));
                frames.writeBytes(header(0, n, offset));
                frames.write(bytes, offset, n);
                offset += n;
            }
            switch (random.nextInt(6)) {
                case 0 -> frames.writeBytes(header(0x80, 1, 0)); // reserved descriptor bit
                case 1 -> frames.writeBytes(header(0, -5, 0)); // negative count
                case 2 -> frames.writeBytes(header(0x48, 3, 1)); // EOF with payload
                case 3 -> frames.writeBytes(java.util.Arrays.copyOf(header(0x48, 0, 1), 9)); // truncated header
                default -> frames.writeBytes(header(0x48, 0, 1)); // EOF+EOD, one connection
            }
            return frames.toByteArray();
        }

        private static byte[] header(int descriptor, long count, long offset) {
            return ByteBuffer.allocate(17)
                    .put((byte) descriptor)
                    .putLong(count)
                    .putLong(offset)
                    .array();
        }

        /** Reads one reply and asserts RFC 959 section 4.2 syntax: CRLF lines, NNN-...NNN . */
        Reply reply() throws IOException {
            String first = line();
            Matcher m = FIRST_LINE.matcher(first);
            assertThat(m.matches()).as("reply line %s", first).isTrue();
            int code = Integer.parseInt(m.group(1));
            List<String> lines = new ArrayList<>(List.of(first));
            if (m.group(2).equals("-")) {
                String line;
                do {
                    line = line();
                    lines.add(line);
                    assertThat(lines.size())
                            .as("multi-line reply %d ends", code)
                            .isLessThan(10_000);
                } while (!line.startsWith(code + " "));
            }
            return new Reply(code, lines);
        }

        private String line() throws IOException {
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            int previous = -1;
            while (true) {
                int b = in.read(); // SocketTimeoutException: the server went silent
                assertThat(b).as("connection open while reading a reply").isNotNegative();
                if (b == '\n') {
                    assertThat(previous).as("LF preceded by CR").isEqualTo('\r');
                    byte[] bytes = line.toByteArray();
                    return new String(bytes, 0, bytes.length - 1, StandardCharsets.UTF_8);
                }
                assertThat(previous).as("bare CR inside a reply line").isNotEqualTo('\r');
                line.write(b);
                previous = b;
            }
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    /** SHA-256 over names, types and contents of everything in the temp dir except the root. */
    private String digestOutsideRoot() throws Exception {
        MessageDigest digest = MessageDigest.getInstance("SHA-256");
        try (Stream<Path> paths = Files.walk(tmp)) {
            for (Path p : paths.filter(p -> !p.startsWith(root)).sorted().toList()) {
                digest.update(tmp.relativize(p).toString().getBytes(StandardCharsets.UTF_8));
                if (Files.isRegularFile(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                    digest.update(Files.readAllBytes(p));
                } else {
                    digest.update((byte) (Files.isDirectory(p, java.nio.file.LinkOption.NOFOLLOW_LINKS) ? 'd' : 'o'));
                }
            }
        }
        return HexFormat.of().formatHex(digest.digest());
    }

    @Provide
    Arbitrary<List<String>> sequences() {
        Arbitrary<String> path = Arbitraries.of(
                "",
                ".",
                "..",
                "../outside",
                "../outside/secret.txt",
                "/../outside/secret.txt",
                "/..",
                "/",
                "//",
                "sub/../../outside/x",
                "escape",
                "escape/secret.txt",
                "escape/new.txt",
                "escape/dir",
                "escape-file",
                "dangling",
                "dangling/x",
                "sub/up",
                "sub/up/secret.txt",
                "sub/up/new",
                "sub",
                "sub/file.txt",
                "new.txt",
                "newdir",
                "newdir/f",
                "/etc/passwd",
                "a\0b",
                "x".repeat(300),
                "y".repeat(5000),
                "%2e%2e/outside",
                "sub//./file.txt",
                "\u00e9t\u00e9 \u4e2d",
                "sp ace",
                "~",
                "*",
                "-la");
        Arbitrary<String> pathVerb = Arbitraries.of(
                "CWD", "MKD", "RMD", "DELE", "RNFR", "RNTO", "SIZE", "MDTM", "MLST", "MLSD", "LIST", "NLST", "RETR",
                "STOR", "APPE", "cwd", "stor", "Retr");
        Arbitrary<String> pathCommand = Combinators.combine(pathVerb, path).as((v, p) -> v + " " + p);
        Arbitrary<String> other = Arbitraries.of(
                "PASV",
                "EPSV",
                "EPSV ALL",
                "EPSV 1",
                "EPSV 3",
                "PASV x",
                "PORT 127,0,0,1,{p1},{p2}",
                "PORT 127,0,0,1,0,1",
                "PORT 1,2,3",
                "PORT 256,0,0,1,1,1",
                "PORT -1,0,0,1,1,1",
                "PORT a,b,c,d,e,f",
                "PORT 127,0,0,1,0,0",
                "PORT",
                "PORT 127,0,0,1,999,1",
                "EPRT |1|127.0.0.1|{port}|",
                "EPRT |2|::1|1|",
                "EPRT |3|x|1|",
                "EPRT ||||",
                "EPRT |1|999.1.1.1|1|",
                "EPRT |1|127.0.0.1|0|",
                "EPRT |1|127.0.0.1|70000|",
                "EPRT x",
                "EPRT",
                "EPRT |1|1.2.3|1|",
                "REST 100",
                "REST 0",
                "REST -1",
                "REST abc",
                "REST 0-10,20-30",
                "REST 10-5",
                "REST 99999999999999999999",
                "REST 1-2,",
                "REST",
                "OPTS UTF8 ON",
                "OPTS RETR Parallelism=4,4,4;",
                "OPTS RETR Parallelism=0;",
                "OPTS RETR markers=-1;",
                "OPTS RETR",
                "OPTS RETR ;",
                "OPTS MLST type;",
                "OPTS garbage",
                "OPTS RETR Parallelism=99999999999;",
                "OPTS RETR markers=1;",
                "OPTS",
                "OPTS RETR =;=;",
                "MODE E",
                "MODE S",
                "MODE X",
                "MODE",
                "MODE e",
                "TYPE I",
                "TYPE A",
                "TYPE L 8",
                "TYPE Z",
                "TYPE",
                "STRU F",
                "STRU R",
                "SBUF -1",
                "SBUF 1048576",
                "SBUF x",
                "ALLO 100",
                "ALLO -5",
                "ALLO x",
                "CKSM MD5 0 -1 sub/file.txt",
                "CKSM ADLER32 5 9223372036854775807 sub/file.txt",
                "CKSM MD5 -1 -1 f",
                "CKSM CRC 0 -1 sub/file.txt",
                "CKSM MD5 0 -1 ../outside/secret.txt",
                "CKSM MD5 0 -1 escape/secret.txt",
                "CKSM x",
                "CKSM MD5 99 -1 sub/file.txt",
                "SITE HELP",
                "SITE CLIENTINFO appname=x",
                "SITE CHMOD 777 x",
                "SITE",
                "FEAT",
                "HELP",
                "HELP RETR",
                "SYST",
                "NOOP",
                "PWD",
                "CDUP",
                "ABOR",
                "USER alice",
                "PASS nope",
                "PASS",
                "USER",
                "XYZZY",
                "",
                " ",
                "\0",
                "NOOP\0x",
                "RETR\tsub/file.txt");
        // A transfer needs an endpoint first: PASV/EPSV or PORT/EPRT to the test's listener, maybe
        // a mode or restart, then the transfer verb, so that data connections really open.
        Arbitrary<String> endpoint =
                Arbitraries.of("PASV", "EPSV", "PORT 127,0,0,1,{p1},{p2}", "EPRT |1|127.0.0.1|{port}|");
        Arbitrary<String> setup =
                Arbitraries.of("MODE E", "MODE S", "REST 10", "REST 0-5", "OPTS RETR Parallelism=3;", "TYPE I", "NOOP");
        Arbitrary<String> transferVerb = Arbitraries.of("STOR", "APPE", "RETR", "LIST", "NLST", "MLSD");
        Arbitrary<List<String>> transfer =
                Combinators.combine(endpoint, setup, transferVerb, path).as((e, m, v, p) -> List.of(e, m, v + " " + p));
        return Arbitraries.frequencyOf(
                        net.jqwik.api.Tuple.of(3, pathCommand.map(List::of)),
                        net.jqwik.api.Tuple.of(2, other.map(List::of)),
                        net.jqwik.api.Tuple.of(2, transfer))
                .list()
                .ofMaxSize(8)
                .map(groups -> groups.stream().flatMap(List::stream).toList());
    }
}
