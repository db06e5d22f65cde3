package org.ferry.mover.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.ferry.mover.testing.GlobusUser;
import org.ferry.mover.testing.GlobusUserOfFerry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Data channel security with the real globus-url-copy against Ferry's server (GFD.020 "DCAU", RFC 2228 section 3 (PROT, PBSZ); GFD.020 "DCAU", RFC 2228 section 3 (PROT)): {@code -nodcau} (DCAU N), default DCAU A with PROT C (GSI handshake, then clear
 * bytes), {@code -dcsafe} (PROT S) and {@code -dcpriv} (PROT P: TLS on every data connection), in
 * stream mode and with {@code -p 4} both ways; bytes compared. Reuses the CA, proxy and server
 * set-up of {@link GsiGlobusInteropTest}
 * ({@link GlobusUserOfFerry}).
 */
class GsiDataChannelGlobusTest {
    @RegisterExtension
    final GlobusUserOfFerry guc = new GlobusUserOfFerry("GucInterop", "Guc User", "guc");

    @TempDir
    Path tmp;

    private static final List<String> MODES = List.of("-nodcau", "", "-dcsafe", "-dcpriv");

    @Test
    void globusUrlCopyInEveryDcauAndProtMode() throws Exception {
        byte[] data = new byte[3_000_000];
        new Random(17).nextBytes(data);
        Files.write(guc.ferry().root().resolve("in.bin"), data);
        String base = guc.base();
        for (String mode : MODES) {
            for (String parallel : List.of("", "4")) {
                String cell = "[" + (mode.isEmpty() ? "default" : mode)
                        + (parallel.isEmpty() ? " stream" : " -p " + parallel) + "]";
                Path local = tmp.resolve("out" + mode + parallel + ".bin");
                GlobusUser.Result down = guc.user().run(command(mode, parallel, base + "/in.bin", "file://" + local));
                assertThat(down.exitCode())
                        .as(cell + " download: " + down.output())
                        .isZero();
                assertThat(Files.readAllBytes(local)).as(cell + " download").isEqualTo(data);
                assertThat(down.output()).as(cell).contains(expectedReply(mode));

                String remote = "up" + mode + parallel + ".bin";
                GlobusUser.Result up = guc.user().run(command(mode, parallel, "file://" + local, base + "/" + remote));
                assertThat(up.exitCode()).as(cell + " upload: " + up.output()).isZero();
                assertThat(Files.readAllBytes(guc.ferry().root().resolve(remote)))
                        .as(cell + " upload")
                        .isEqualTo(data);
            }
        }
    }

    @Test
    void anEmptyFileInEveryDcauAndProtMode() throws Exception {
        // Stream mode: the data ends with the close, at once for an empty file, after the handshake.
        Files.createFile(guc.ferry().root().resolve("empty.bin"));
        for (String mode : MODES) {
            Path local = tmp.resolve("empty" + mode + ".bin");
            GlobusUser.Result down = guc.user().run(command(mode, "", guc.base() + "/empty.bin", "file://" + local));
            assertThat(down.exitCode()).as(mode + " download: " + down.output()).isZero();
            assertThat(local).as(mode).isEmptyFile();
        }
    }

    @Test
    void featAdvertisesDcau() throws Exception {
        Files.writeString(guc.ferry().root().resolve("f.txt"), "x");
        GlobusUser.Result r =
                guc.user().run("globus-url-copy", "-dbg", guc.base() + "/f.txt", "file://" + tmp.resolve("f.txt"));
        assertThat(r.exitCode()).as(r.output()).isZero();
        assertThat(r.output()).contains(" DCAU");
    }

    private static String expectedReply(String mode) {
        return switch (mode) {
            case "-nodcau" -> "200 DCAU N.";
            case "-dcsafe" -> "200 Protection level set to S.";
            case "-dcpriv" -> "200 Protection level set to P.";
            default -> "Transfer Complete";
        };
    }

    private static String[] command(String mode, String parallel, String from, String to) {
        List<String> cmd = new ArrayList<>(List.of("globus-url-copy", "-dbg"));
        if (!mode.isEmpty()) {
            cmd.add(mode);
        }
        if (!parallel.isEmpty()) {
            cmd.addAll(List.of("-p", parallel));
        }
        cmd.add(from);
        cmd.add(to);
        return cmd.toArray(String[]::new);
    }
}
