package org.ferry.mover.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.ferry.mover.server.pi.GridFtpServerConfig;
import org.ferry.mover.testing.GlobusUser;
import org.ferry.mover.testing.GlobusUserOfFerry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real globus-url-copy (with a proxy from the real grid-proxy-init) against Ferry's server
 * in GSI mode: AUTH GSSAPI/ADAT with delegation, gridmap login, wrapped commands and replies.
 * Skips without the tools, fails instead under {@code CI=true}.
 */
class GsiGlobusInteropTest {
    @RegisterExtension
    final GlobusUserOfFerry guc = new GlobusUserOfFerry("GucInterop", "Guc User", "guc");

    @TempDir
    Path tmp;

    @Test
    void globusUrlCopyDownloadsAndUploadsOverGsi() throws Exception {
        byte[] data = new byte[1_000_000];
        new Random(11).nextBytes(data);
        Files.write(guc.ferry().root().resolve("in.bin"), data);
        String base = guc.base();
        Path local = tmp.resolve("out.bin");
        List<String> cmd = new ArrayList<>(List.of("globus-url-copy", "-dbg", base + "/in.bin", "file://" + local));
        GlobusUser.Result down = guc.user().run(cmd.toArray(String[]::new));
        assertThat(down.exitCode()).as(down.output()).isZero();
        assertThat(Files.readAllBytes(local)).isEqualTo(data);
        // -dbg shows the mapped login that follows AUTH/ADAT, and every later reply unwrapped.
        assertThat(down.output()).contains("authenticating with").contains("230 User guc logged in.");

        GlobusUser.Result up = guc.user().run("globus-url-copy", "file://" + local, base + "/up.bin");
        assertThat(up.exitCode()).as(up.output()).isZero();
        assertThat(Files.readAllBytes(guc.ferry().root().resolve("up.bin"))).isEqualTo(data);

        GlobusUser.Result list = guc.user().run("globus-url-copy", "-list", base + "/");
        assertThat(list.exitCode()).as(list.output()).isZero();
        assertThat(list.output()).contains("in.bin").contains("up.bin");
    }

    @Test
    void driverStacksFromDcstackAndFsstackAreAcceptedOrRefusedByName() throws Exception {
        byte[] data = new byte[200_000];
        new Random(12).nextBytes(data);
        Files.write(guc.ferry().root().resolve("stack.bin"), data);
        Path local = tmp.resolve("stack.out");
        // -dcstack goes out only for gsiftp://, with gsi added (globus_url_copy.c): what Ferry does anyway
        GlobusUser.Result tcp = guc.user()
                .run(
                        "globus-url-copy",
                        "-dbg",
                        "-dcstack",
                        "tcp",
                        "-fsstack",
                        "file",
                        guc.base() + "/stack.bin",
                        "file://" + local);
        assertThat(tcp.exitCode()).as(tcp.output()).isZero();
        assertThat(tcp.output()).contains("SITE SETNETSTACK tcp,gsi").contains("SITE SETDISKSTACK file");
        assertThat(Files.readAllBytes(local)).isEqualTo(data);
        GlobusUser.Result udt = guc.user()
                .run("globus-url-copy", "-dcstack", "udt", guc.base() + "/stack.bin", "file://" + local + ".udt");
        assertThat(udt.exitCode()).isNotZero();
        assertThat(udt.output()).contains("'udt'");
        GlobusUser.Result popen = guc.user()
                .run("globus-url-copy", "-src-pipe", "tar#cf#-#/etc", guc.base() + "/x", "file://" + local + ".tar");
        assertThat(popen.exitCode()).isNotZero();
        assertThat(popen.output()).contains("popen driver is not enabled");
    }

    @Test
    void limitedAndLegacyProxiesAreAccepted() throws Exception {
        Files.writeString(guc.ferry().root().resolve("small.txt"), "hello\n");
        // Debian's globus (on OpenSSL 3) cannot verify a chain of legacy proxies itself ("key usage
        // does not include certificate signing": globus-gridftp-server refuses -old proxies at login),
        // so on a DCAU data connection globus-url-copy refuses the legacy chain Ferry's server
        // presents, delegated from its own. Ferry accepts the legacy proxy at login; data goes clear.
        for (List<String> options : List.of(List.of("-limited"), List.of("-old", "-nodcau"))) {
            guc.user().proxyInit(options.get(0));
            Path local = tmp.resolve("small" + options.get(0) + ".txt");
            List<String> command = new ArrayList<>(List.of("globus-url-copy", "-dbg"));
            command.addAll(options.subList(1, options.size()));
            command.addAll(List.of(guc.base() + "/small.txt", "file://" + local));
            GlobusUser.Result r = guc.user().run(command.toArray(String[]::new));
            assertThat(r.exitCode()).as(options + ": " + r.output()).isZero();
            assertThat(r.output()).as(options.toString()).contains("230 User guc logged in.");
            assertThat(Files.readString(local)).isEqualTo("hello\n");
        }
    }

    @Test
    void unmappedUserSeesTheGridmapError() throws Exception {
        try (GridFtpServer other = GridFtpServer.start(
                GridFtpServerConfig.loopback(guc.ferry().root()),
                guc.ferry().pki().serverSecurity("\"/O=Other/CN=x\" x\n"))) {
            GlobusUser.Result r =
                    guc.user().run("globus-url-copy", "-list", "gsiftp://localhost:" + other.port() + "/");
            assertThat(r.exitCode()).isNotZero();
            assertThat(r.output())
                    .contains("530")
                    .contains("Gridmap lookup failure: Could not map /O=Grid/OU=GucInterop/CN=Guc User");
        }
    }
}
