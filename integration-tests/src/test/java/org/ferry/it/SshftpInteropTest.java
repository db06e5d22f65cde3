package org.ferry.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.ferry.it.infra.SshdServer;
import org.ferry.mover.client.GridFtpClient;
import org.ferry.mover.client.GridFtpSession;
import org.ferry.mover.client.GridFtpUrl;
import org.ferry.mover.client.SshftpSecurity;
import org.ferry.mover.client.TransferListener;
import org.ferry.mover.client.TransferOptions;
import org.ferry.mover.protocol.FileInfo;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * sshftp:// both ways through a real OpenSSH sshd on loopback (a test user, key authentication):
 * globus-url-copy to and from ferry-gridftp made the remote side with the one documented line
 * ({@code ferry-gridftp enable-sshftp}, here {@code --out ~/.globus/sshftp} as the user), single
 * files, {@code -r}, {@code -p 4}, {@code -pp}; Ferry's client to and from globus-gridftp-server
 * through the remote command {@code globus-gridftp-server-enable-sshftp} writes, and to
 * ferry-gridftp; and what must fail: an unknown host key, a key sshd does not know.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SshftpInteropTest {

    private static SshdServer sshd;
    private static Path data;
    private static Path launcher;
    private static Path globusScript;

    @BeforeAll
    static void start() throws Exception {
        GlobusTools.assumeInstalled();
        sshd = SshdServer.start();
        launcher = Launchers.fromBuild().repoRoot().resolve("bin/ferry-gridftp");
        data = Files.createDirectories(sshd.directory().resolve("data"));
        TestTrees.generateAscii(data.resolve("tree"), 40, new long[] {700_000}, 20261128L);
        Files.write(data.resolve("big.bin"), random(5 << 20, 1));
        sshd.chown(data);
        // the one documented line, as the user: ~/.globus/sshftp runs ferry-gridftp --ssh
        assertThat(sshd.enableFerrySshftp(launcher, "--popen-allow", "tar:/bin/tar"))
                .isEqualTo(sshd.home().resolve(".globus/sshftp"));
        // globus's own remote command, written where it does not shadow Ferry's
        globusScript = sshd.enableGlobusSshftp();
    }

    @AfterAll
    static void stop() {
        if (sshd != null) {
            sshd.close();
        }
    }

    private static byte[] random(int size, long seed) {
        byte[] bytes = new byte[size];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }

    private static SshdServer.Run urlCopy(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(GlobusTools.GLOBUS_URL_COPY.toString());
        command.addAll(List.of(args));
        return sshd.runAsUser(Map.of(), Duration.ofSeconds(120), command);
    }

    private static Path userDirectory(String name) throws IOException {
        Path dir = Files.createDirectories(sshd.directory().resolve(name));
        sshd.chown(dir);
        return dir;
    }

    @Test
    @Order(1)
    void globusUrlCopyDownloadsAndUploadsSingleFilesThroughFerry() throws Exception {
        Path out = userDirectory("guc-single");
        SshdServer.Run get = urlCopy(sshd.sshftpBase() + data.resolve("big.bin"), "file://" + out.resolve("big.bin"));
        assertThat(get.exitCode()).as(get.output() + sshd.log()).isZero();
        assertThat(out.resolve("big.bin")).hasSameBinaryContentAs(data.resolve("big.bin"));
        SshdServer.Run put = urlCopy("file://" + data.resolve("big.bin"), sshd.sshftpBase() + out.resolve("up.bin"));
        assertThat(put.exitCode()).as(put.output()).isZero();
        assertThat(out.resolve("up.bin")).hasSameBinaryContentAs(data.resolve("big.bin"));
        SshdServer.Run parallel =
                urlCopy("-p", "4", sshd.sshftpBase() + data.resolve("big.bin"), "file://" + out.resolve("big-p4.bin"));
        assertThat(parallel.exitCode()).as(parallel.output()).isZero();
        assertThat(out.resolve("big-p4.bin")).hasSameBinaryContentAs(data.resolve("big.bin"));
    }

    @Test
    @Order(2)
    void globusUrlCopyMovesTreesBothWaysWithParallelismAndPipelining() throws Exception {
        Path out = userDirectory("guc-tree");
        SshdServer.Run get = urlCopy(
                "-r",
                "-cd",
                "-p",
                "4",
                "-pp",
                sshd.sshftpBase() + data.resolve("tree") + "/",
                "file://" + out.resolve("down") + "/");
        assertThat(get.exitCode()).as(get.output()).isZero();
        assertThat(TreeDigest.of(out.resolve("down"))).isEqualTo(TreeDigest.of(data.resolve("tree")));
        SshdServer.Run put = urlCopy(
                "-r",
                "-cd",
                "-p",
                "4",
                "-pp",
                "file://" + data.resolve("tree") + "/",
                sshd.sshftpBase() + out.resolve("up") + "/");
        assertThat(put.exitCode()).as(put.output()).isZero();
        assertThat(TreeDigest.of(out.resolve("up"))).isEqualTo(TreeDigest.of(data.resolve("tree")));
    }

    private static SshftpSecurity security() throws IOException, GeneralSecurityException {
        return SshftpSecurity.knownHosts(sshd.knownHosts()).withKeyFile(sshd.clientKey(), null);
    }

    @Test
    @Order(3)
    void ferrysClientMovesFilesToAndFromGlobusGridftpServerThroughSshftp() throws Exception {
        Path out = userDirectory("ferry-client-globus");
        SshftpSecurity security = security().withRemoteCommand(globusScript.toString());
        try (GridFtpClient client = new GridFtpClient(Duration.ofSeconds(60));
                GridFtpSession session = client.openSsh(GridFtpUrl.parse(sshd.sshftpBase() + "/"), security)) {
            Path local = Files.createTempFile("sshftp", ".bin");
            try {
                long bytes = session.download(
                        data.resolve("big.bin").toString(), local, TransferOptions.STREAM, TransferListener.NONE);
                assertThat(bytes).isEqualTo(5 << 20);
                assertThat(local).hasSameBinaryContentAs(data.resolve("big.bin"));
                session.upload(
                        local, out.resolve("up-stream.bin").toString(), TransferOptions.STREAM, TransferListener.NONE);
                assertThat(out.resolve("up-stream.bin")).hasSameBinaryContentAs(data.resolve("big.bin"));
                session.upload(
                        local,
                        out.resolve("up-p4.bin").toString(),
                        TransferOptions.extendedBlock(4),
                        TransferListener.NONE);
                assertThat(out.resolve("up-p4.bin")).hasSameBinaryContentAs(data.resolve("big.bin"));
                List<FileInfo> listing = session.list(data.toString());
                assertThat(listing).extracting(FileInfo::name).contains("big.bin", "tree");
            } finally {
                Files.deleteIfExists(local);
            }
        }
    }

    @Test
    @Order(4)
    void ferrysClientReachesFerryGridftpThroughTheDocumentedRemoteCommand() throws Exception {
        try (GridFtpClient client = new GridFtpClient(Duration.ofSeconds(60));
                GridFtpSession session = client.openSsh(GridFtpUrl.parse(sshd.sshftpBase() + "/"), security())) {
            Path local = Files.createTempFile("sshftp", ".bin");
            try {
                session.download(
                        data.resolve("big.bin").toString(),
                        local,
                        TransferOptions.extendedBlock(4),
                        TransferListener.NONE);
                assertThat(local).hasSameBinaryContentAs(data.resolve("big.bin"));
            } finally {
                Files.deleteIfExists(local);
            }
        }
    }

    @Test
    @Order(5)
    void keysComeFromTheAgentOrFromAnEncryptedFileWhosePassphraseIsNeverShown() throws Exception {
        Path keys = Files.createTempDirectory("sshftp-keys");
        Path encrypted = keys.resolve("id_encrypted");
        String passphrase = "correct horse " + System.nanoTime();
        // the user's own key, encrypted under a passphrase (ssh-keygen -p rewrites a copy)
        Files.copy(sshd.clientKey(), encrypted);
        Files.setPosixFilePermissions(encrypted, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        run("ssh-keygen", "-q", "-p", "-N", passphrase, "-f", encrypted.toString());
        Path socket = keys.resolve("agent.sock");
        Process agent = new ProcessBuilder("ssh-agent", "-D", "-a", socket.toString())
                .redirectErrorStream(true)
                .redirectOutput(keys.resolve("agent.out").toFile())
                .start();
        try (GridFtpClient client = new GridFtpClient(Duration.ofSeconds(30))) {
            SshftpSecurity withFile =
                    SshftpSecurity.knownHosts(sshd.knownHosts()).withKeyFile(encrypted, passphrase.toCharArray());
            try (GridFtpSession session = client.openSsh(GridFtpUrl.parse(sshd.sshftpBase() + "/"), withFile)) {
                assertThat(session.list(data.toString()))
                        .extracting(FileInfo::name)
                        .contains("big.bin");
            }
            String wrong = "wrong " + passphrase;
            assertThatThrownBy(() ->
                            SshftpSecurity.knownHosts(sshd.knownHosts()).withKeyFile(encrypted, wrong.toCharArray()))
                    .isInstanceOf(GeneralSecurityException.class)
                    .satisfies(e -> assertThat(String.valueOf(e.getMessage())).doesNotContain(wrong));
            // the agent: wait for its socket (an event of the agent's), then hand it the key
            await("ssh-agent's socket " + socket)
                    .atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(20))
                    .until(() -> {
                        // an agent that died will never make its socket: fail at once, with its words
                        assertThat(agent.isAlive())
                                .as(Files.readString(keys.resolve("agent.out")))
                                .isTrue();
                        return Files.exists(socket);
                    });
            ProcessBuilder add = new ProcessBuilder("ssh-add", sshd.clientKey().toString()).redirectErrorStream(true);
            add.environment().put("SSH_AUTH_SOCK", socket.toString());
            Process adding = add.start();
            String added = new String(adding.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            assertThat(adding.waitFor()).as(added).isZero();
            SshftpSecurity withAgent =
                    SshftpSecurity.knownHosts(sshd.knownHosts()).withAgent(socket);
            try (GridFtpSession session = client.openSsh(GridFtpUrl.parse(sshd.sshftpBase() + "/"), withAgent)) {
                assertThat(session.list(data.toString()))
                        .extracting(FileInfo::name)
                        .contains("big.bin");
            }
        } finally {
            agent.destroy();
            agent.waitFor();
            org.ferry.mover.client.GlobusGridFtpServer.deleteTree(keys);
        }
    }

    private static void run(String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(process.waitFor())
                .as(String.join(" ", command) + ": " + output)
                .isZero();
    }

    @Test
    @Order(6)
    void anUnknownHostKeyEndsTheConnectionBeforeAnyLogin() throws Exception {
        Path empty = Files.createTempFile("known_hosts", "");
        try (GridFtpClient client = new GridFtpClient(Duration.ofSeconds(30))) {
            SshftpSecurity untrusting = SshftpSecurity.knownHosts(empty).withKeyFile(sshd.clientKey(), null);
            assertThatThrownBy(() -> client.openSsh(GridFtpUrl.parse(sshd.sshftpBase() + "/"), untrusting))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("is not trusted")
                    .hasMessageContaining("not in " + empty);
            assertThat(Files.readString(empty)).isEmpty(); // nothing was added to known_hosts
        } finally {
            Files.deleteIfExists(empty);
        }
    }

    @Test
    @Order(7)
    void aKeySshdDoesNotKnowIsRefused() throws Exception {
        Path other = Files.createTempDirectory("otherkey").resolve("id");
        Process keygen = new ProcessBuilder("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", other.toString())
                .redirectErrorStream(true)
                .start();
        assertThat(keygen.waitFor()).isZero();
        try (GridFtpClient client = new GridFtpClient(Duration.ofSeconds(30))) {
            SshftpSecurity stranger =
                    SshftpSecurity.knownHosts(sshd.knownHosts()).withKeyFile(other, null);
            assertThatThrownBy(() -> client.openSsh(GridFtpUrl.parse(sshd.sshftpBase() + "/"), stranger))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("refused every key");
        }
    }

    @Test
    @Order(8)
    void aWholeSessionPipedThroughSshThenItsEndIsAnsweredInFull() throws Exception {
        // printf '...' | ssh user@host ~/.globus/sshftp: sshd closes the server's standard input right
        // after the last command; every command before it gets its reply, in order
        Path input = sshd.directory().resolve("whole-session.txt");
        Files.writeString(
                input,
                "USER " + sshd.user() + "\r\nPASS dummy\r\nSYST\r\nTYPE I\r\nSIZE " + data.resolve("big.bin")
                        + "\r\nPWD\r\nQUIT\r\n");
        SshdServer.Run session = sshd.runAsUser(
                Map.of(),
                Duration.ofSeconds(60),
                List.of("ssh", "-p", String.valueOf(sshd.port()), sshd.user() + "@127.0.0.1", ".globus/sshftp"),
                input);
        assertThat(session.exitCode()).as(session.output() + sshd.log()).isZero();
        List<String> codes = session.output()
                .lines()
                .filter(line -> line.matches("\\d{3} .*"))
                .map(line -> line.substring(0, 3))
                .toList();
        assertThat(codes).as(session.output()).containsExactly("220", "331", "230", "215", "200", "213", "257", "221");
        assertThat(session.output()).contains("213 " + (5 << 20));
    }
}
