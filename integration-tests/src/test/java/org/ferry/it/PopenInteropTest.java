package org.ferry.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.ferry.mover.client.GlobusGridFtpServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The Popen driver with the real client: globus-url-copy {@code -src-pipe "tar#cf#-#-C#/data#run1"}
 * and {@code -dst-pipe "tar#xf#-#-C#/archive"} against ferry-gridftp started with
 * {@code --popen-allow tar:/bin/tar} and against globus-gridftp-server started with
 * {@code -fs-whitelist popen,file,ordering -popen-whitelist tar:/bin/tar}, the same client and the
 * same allow list: the same trees come out, and the same things fail (a program off the list, tar
 * exiting non-zero, shell syntax in an argument, which reaches tar literally).
 */
class PopenInteropTest {

    private static Path dir;
    private static Path data;
    private static Path treeDigest;
    private static FerryGridFtpProcess ferry;
    private static GlobusGridFtpServer globus;

    @BeforeAll
    static void start() throws Exception {
        GlobusTools.assumeInstalled();
        dir = Files.createTempDirectory("ferry-popen-");
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
        data = dir.resolve("data");
        TestTrees.generateAscii(data.resolve("run1"), 60, new long[] {1 << 20}, 20261128L);
        // a copy the globus sessions' unprivileged user can surely run, wherever the checkout is
        treeDigest = dir.resolve("ferry-treedigest");
        Files.copy(Launchers.fromBuild().repoRoot().resolve("bin/ferry-treedigest"), treeDigest);
        String allowed = "tar:/bin/tar,treedigest:" + treeDigest;
        ferry = FerryGridFtpProcess.start(
                Launchers.fromBuild(), dir, dir.resolve("ferry.log"), 0, "--popen-allow", allowed);
        globus =
                GlobusGridFtpServer.start(List.of("-fs-whitelist", "popen,file,ordering", "-popen-whitelist", allowed));
        GlobusGridFtpServer.chown(dir); // the globus sessions run tar as their unprivileged user
    }

    @AfterAll
    static void stop() throws Exception {
        if (ferry != null) {
            ferry.close();
        }
        if (globus != null) {
            globus.close();
        }
        GlobusGridFtpServer.deleteTree(dir);
    }

    private static String base(String server) {
        return server.equals("ferry") ? "ftp://127.0.0.1:" + ferry.port() : globus.base();
    }

    private static GlobusTools.Run urlCopy(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(GlobusTools.GLOBUS_URL_COPY.toString());
        command.addAll(List.of(args));
        return GlobusTools.run(Map.of(), 120, command);
    }

    private static Path fresh(String name) throws IOException {
        Path path = Files.createDirectories(dir.resolve(name));
        GlobusGridFtpServer.chown(path);
        return path;
    }

    @ParameterizedTest
    @ValueSource(strings = {"ferry", "globus"})
    void srcPipeTarsADirectoryAndDstPipeUnpacksIt(String server) throws Exception {
        Path out = fresh("out-" + server);
        GlobusTools.Run get = urlCopy(
                "-src-pipe", "tar#cf#-#-C#" + data + "#run1", base(server) + "/x", "file://" + out.resolve("run1.tar"));
        assertThat(get.exitCode()).as(get.output()).isZero();
        Path archive = fresh("archive-" + server);
        GlobusTools.Run put = urlCopy(
                "-dst-pipe", "tar#xf#-#-C#" + archive, "file://" + out.resolve("run1.tar"), base(server) + "/y");
        assertThat(put.exitCode()).as(put.output()).isZero();
        assertThat(TreeDigest.of(archive.resolve("run1"))).isEqualTo(TreeDigest.of(data.resolve("run1")));
        // MODE E with four streams: blocks arrive out of order, the program still reads them in order
        Path parallel = fresh("archive-p4-" + server);
        GlobusTools.Run putP4 = urlCopy(
                "-p",
                "4",
                "-dst-pipe",
                "tar#xf#-#-C#" + parallel,
                "file://" + out.resolve("run1.tar"),
                base(server) + "/y");
        assertThat(putP4.exitCode()).as(putP4.output()).isZero();
        assertThat(TreeDigest.of(parallel.resolve("run1"))).isEqualTo(TreeDigest.of(data.resolve("run1")));
    }

    @org.junit.jupiter.api.Test
    void anAllowedProgramDigestsATreeAsFerrysBuiltInTreeDigestDoes() throws Exception {
        Map<String, String> digests = new java.util.HashMap<>();
        for (String server : List.of("ferry", "globus")) {
            Path out = fresh("digest-" + server);
            GlobusTools.Run get = urlCopy(
                    "-src-pipe",
                    "treedigest#" + data.resolve("run1"),
                    base(server) + "/x",
                    "file://" + out.resolve("d"));
            assertThat(get.exitCode()).as(get.output()).isZero();
            digests.put(server, Files.readString(out.resolve("d")).strip());
        }
        try (org.ferry.mover.client.GridFtpClient client = new org.ferry.mover.client.GridFtpClient();
                org.ferry.mover.client.GridFtpSession session =
                        client.open(org.ferry.mover.client.GridFtpUrl.parse(base("ferry")))) {
            String builtIn = session.checksum("SHA256-TREE", "/data/run1");
            assertThat(digests).containsEntry("ferry", builtIn).containsEntry("globus", builtIn);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"ferry", "globus"})
    void aProgramOffTheListIsRefusedNamingIt(String server) throws Exception {
        Path out = fresh("refused-" + server);
        GlobusTools.Run get = urlCopy("-src-pipe", "ls#-l#/", base(server) + "/x", "file://" + out.resolve("ls.out"));
        assertThat(get.exitCode()).isNotZero();
        assertThat(get.output()).contains("'ls'").containsPattern("500[ -]");
    }

    @ParameterizedTest
    @ValueSource(strings = {"ferry", "globus"})
    void tarsFailureIsTheTransfersReply(String server) throws Exception {
        Path out = fresh("failed-" + server);
        GlobusTools.Run get = urlCopy(
                "-src-pipe",
                "tar#cf#-#-C#" + data + "#missing",
                base(server) + "/x",
                "file://" + out.resolve("bad.tar"));
        assertThat(get.exitCode()).isNotZero();
        assertThat(get.output()).contains("missing: Cannot stat").contains("exit");
    }

    @ParameterizedTest
    @ValueSource(strings = {"ferry", "globus"})
    void shellSyntaxInAnArgumentReachesTheProgramLiterally(String server) throws Exception {
        Path out = fresh("literal-" + server);
        Path pwned = dir.resolve("pwned-" + server);
        // globus-url-copy splits its pipe string at spaces as well: ${IFS} is the shell's space
        GlobusTools.Run get = urlCopy(
                "-src-pipe",
                "tar#cf#-#-C#" + data + "#$(touch${IFS}" + pwned + ")",
                base(server) + "/x",
                "file://" + out.resolve("x.tar"));
        assertThat(get.exitCode()).isNotZero();
        assertThat(get.output()).contains("$(touch${IFS}" + pwned + "): Cannot stat");
        assertThat(pwned).doesNotExist();
    }
}
