package org.ferry.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/ferry-gridftp} as a site runs it (README.md, "The GridFTP server"): the JVM settings the README
 * describes reach the server's JVM (C1 only, the parallel collector, Netty's leak detector off),
 * {@code FERRY_JAVA_OPTS} overrides them the way the README says (G1 back), and a server so started
 * serves a pipelined recursive download by {@code globus-url-copy} byte for byte. The JVM's own
 * answer is asked for with {@code jcmd}, not the command line.
 */
class GridFtpLauncherTest {

    private final Launchers launchers = Launchers.fromBuild();

    @TempDir
    Path work;

    private Path source;

    @BeforeEach
    void makeSourceTree() throws IOException {
        GlobusTools.assumeInstalled();
        source = Files.createDirectories(work.resolve("root/tree"));
        Path nested = Files.createDirectories(source.resolve("nested"));
        SplittableRandom random = new SplittableRandom(17);
        for (int i = 0; i < 40; i++) {
            byte[] data = new byte[random.nextInt(200 * 1024)];
            random.nextBytes(data);
            Files.write((i % 4 == 0 ? nested : source).resolve("file-" + i + ".bin"), data);
        }
        Files.createFile(source.resolve("empty.bin"));
    }

    @Test
    void theLauncherStartsAServerWithItsJvmSettingsThatServesAPipelinedDownloadByteForByte() throws Exception {
        try (FerryGridFtpProcess server = FerryGridFtpProcess.startWithLauncher(
                launchers, work.resolve("root"), work.resolve("server.log"), Map.of())) {
            assertThat(jcmd(server, "VM.flags"))
                    .contains("-XX:+UseParallelGC", "-XX:TieredStopAtLevel=1")
                    .doesNotContain("-XX:+UseG1GC");
            assertThat(jcmd(server, "VM.system_properties")).contains("io.netty.leakDetection.level=disabled");

            Path destination = work.resolve("downloaded");
            GlobusTools.urlCopy(120, "-r", "-pp", "-cd", server.url() + "/tree/", "file://" + destination + "/");
            assertThat(TreeDigest.of(destination)).isEqualTo(TreeDigest.of(source));
        }
    }

    @Test
    void ferryJavaOptsGivesG1BackAsTheReadmeSays() throws Exception {
        try (FerryGridFtpProcess server = FerryGridFtpProcess.startWithLauncher(
                launchers,
                work.resolve("root"),
                work.resolve("server-g1.log"),
                Map.of("FERRY_JAVA_OPTS", "-XX:-UseParallelGC -XX:+UseG1GC"))) {
            assertThat(jcmd(server, "VM.flags")).contains("-XX:+UseG1GC").doesNotContain("-XX:+UseParallelGC");

            Path copy = work.resolve("file-1.bin");
            GlobusTools.urlCopy(60, "-p", "2", server.url() + "/tree/file-1.bin", "file://" + copy);
            assertThat(TreeDigest.sha256(copy)).isEqualTo(TreeDigest.sha256(source.resolve("file-1.bin")));
        }
    }

    /** @return what {@code jcmd PID command} prints for the server's JVM */
    private static String jcmd(FerryGridFtpProcess server, String command) throws IOException, InterruptedException {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        GlobusTools.Run run =
                GlobusTools.run(Map.of(), 60, List.of(jcmd.toString(), Long.toString(server.pid()), command));
        assertThat(run.exitCode()).as("jcmd %s:%n%s", command, run.output()).isZero();
        return run.output();
    }
}
