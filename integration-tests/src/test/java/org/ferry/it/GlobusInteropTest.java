package org.ferry.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.SplittableRandom;
import org.ferry.mover.client.GlobusGridFtpServer;
import org.ferry.mover.client.GridFtpClient;
import org.ferry.mover.client.GridFtpSession;
import org.ferry.mover.client.TransferListener;
import org.ferry.mover.client.TransferOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Interop smoke test with the real Globus tools: globus-url-copy downloads from and uploads to
 * {@code ferry-gridftp} in stream mode and in MODE E with 4 parallel streams, and the Ferry client
 * downloads from {@code globus-gridftp-server} with 4 parallel streams. Every file is compared
 * byte for byte.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GlobusInteropTest {

    private static final int FILE_BYTES = 48 << 20;

    /** Shared by all tests of the class: servers' roots, logs, downloads. */
    private Path work;

    private Path ferryRoot;
    private Path original;
    private FerryGridFtpProcess ferry;

    @BeforeAll
    void start(@TempDir Path classWork) throws Exception {
        work = classWork;
        GlobusTools.assumeInstalled();
        ferryRoot = Files.createDirectories(work.resolve("ferry-root"));
        original = ferryRoot.resolve("random data.bin");
        byte[] data = new byte[FILE_BYTES];
        new SplittableRandom(7).nextBytes(data);
        Files.write(original, data);
        ferry = FerryGridFtpProcess.start(Launchers.fromBuild(), ferryRoot, work.resolve("ferry-gridftp.log"));
    }

    @AfterAll
    void stop() throws Exception {
        if (ferry != null) {
            ferry.close();
        }
    }

    /** @param parallelism 0 = stream mode, else {@code -p N} (MODE E) */
    @ParameterizedTest(name = "globus-url-copy download from ferry-gridftp, p={0}")
    @ValueSource(ints = {0, 4})
    void globusUrlCopyDownloadsFromFerry(int parallelism) throws Exception {
        Path target = work.resolve("downloaded-" + parallelism + ".bin");
        GlobusTools.urlCopy(300, withParallelism(parallelism, ferry.url() + "/random%20data.bin", "file://" + target));
        assertThat(target).hasSameBinaryContentAs(original);
    }

    @ParameterizedTest(name = "globus-url-copy upload to ferry-gridftp, p={0}")
    @ValueSource(ints = {0, 4})
    void globusUrlCopyUploadsToFerry(int parallelism) throws Exception {
        GlobusTools.urlCopy(
                300,
                withParallelism(parallelism, "file://" + original, ferry.url() + "/uploaded-" + parallelism + ".bin"));
        assertThat(ferryRoot.resolve("uploaded-" + parallelism + ".bin")).hasSameBinaryContentAs(original);
    }

    @ParameterizedTest(name = "Ferry client download from globus-gridftp-server, p={0}")
    @ValueSource(ints = {0, 4})
    void ferryClientDownloadsFromGlobus(int parallelism) throws Exception {
        // globus-gridftp-server runs as gsuser: serve a world-readable copy outside the private @TempDir
        Path shared = Files.createTempDirectory(Path.of("/tmp"), "ferry-it-globus");
        Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path served = Files.copy(original, shared.resolve("served.bin"));
        Files.setPosixFilePermissions(served, PosixFilePermissions.fromString("rw-r--r--"));
        Path target = work.resolve("from-globus-" + parallelism + ".bin");
        TransferOptions options =
                parallelism == 0 ? TransferOptions.STREAM : TransferOptions.extendedBlock(parallelism);
        try (GlobusGridFtpServer globus = GlobusGridFtpServer.start();
                GridFtpClient client = new GridFtpClient();
                GridFtpSession session = client.open(globus.url())) {
            long bytes = session.download(served.toString(), target, options, TransferListener.NONE);
            assertThat(bytes).isEqualTo(FILE_BYTES);
        } finally {
            Files.deleteIfExists(served);
            Files.deleteIfExists(shared);
        }
        assertThat(target).hasSameBinaryContentAs(original);
    }

    private static String[] withParallelism(int parallelism, String from, String to) {
        return parallelism == 0
                ? new String[] {from, to}
                : new String[] {"-p", Integer.toString(parallelism), from, to};
    }
}
