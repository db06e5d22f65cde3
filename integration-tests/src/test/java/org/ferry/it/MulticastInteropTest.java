package org.ferry.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.ferry.mover.client.GridFtpClient;
import org.ferry.mover.server.GridFtpServer;
import org.ferry.mover.server.command.SiteSetDiskStackHandler;
import org.ferry.mover.server.dtp.DtpFactory;
import org.ferry.mover.server.multicast.MulticastPolicy;
import org.ferry.mover.server.pi.GridFtpServerConfig;
import org.ferry.mover.server.popen.PopenPolicy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real globus-url-copy drives Ferry's multicast: {@code globus-url-copy -p 4 -MC dests SOURCE}
 * (the first line of {@code dests} is the first destination, the others its tree) from a
 * ferry-gridftp source to four ferry-gridftp destinations with multicast on; globus-url-copy
 * builds the {@code SITE SETDISKSTACK file,gridftp_multicast:...} stack itself
 * (globus_url_copy.c guc_build_mc_str). Every destination ends with the source's bytes at the path
 * its line names.
 */
class MulticastInteropTest {

    @TempDir
    Path work;

    private final List<GridFtpServer> servers = new ArrayList<>();
    private GridFtpClient forwarding;

    @AfterEach
    void stop() {
        servers.forEach(GridFtpServer::close);
        if (forwarding != null) {
            forwarding.close();
        }
    }

    @Test
    void globusUrlCopyMulticastReachesFourFerryServers() throws Exception {
        GlobusTools.assumeInstalled();
        forwarding = new GridFtpClient(Duration.ofSeconds(120));
        MulticastPolicy policy = MulticastPolicy.of(forwarding::open);
        Path sourceRoot = Files.createDirectories(work.resolve("src"));
        byte[] data = new byte[24 << 20];
        new Random(5).nextBytes(data);
        Files.write(sourceRoot.resolve("x.h5"), data);
        GridFtpServer source = start(sourceRoot, null);
        List<Path> roots = new ArrayList<>();
        StringBuilder dests = new StringBuilder();
        for (int i = 1; i <= 4; i++) {
            Path root = Files.createDirectories(work.resolve("d" + i).resolve("in"));
            roots.add(root);
            GridFtpServer server = start(root.getParent(), policy);
            dests.append("ftp://127.0.0.1:").append(server.port()).append("/in/x.h5\n");
        }
        Path list = Files.writeString(work.resolve("dests"), dests);

        GlobusTools.Run run = GlobusTools.run(
                Map.of(),
                180,
                List.of(
                        GlobusTools.GLOBUS_URL_COPY.toString(),
                        "-p",
                        "4",
                        "-MC",
                        list.toString(),
                        "ftp://127.0.0.1:" + source.port() + "/x.h5"));

        assertThat(run.exitCode())
                .as("globus-url-copy output:%n%s", run.output())
                .isZero();
        for (Path root : roots) {
            assertThat(Files.readAllBytes(root.resolve("x.h5")))
                    .as(root.toString())
                    .isEqualTo(data);
        }
    }

    private GridFtpServer start(Path root, MulticastPolicy policy) throws Exception {
        GridFtpServerConfig config = GridFtpServerConfig.loopback(root).withAnonymousAllowed(true);
        GridFtpServer server = policy == null
                ? GridFtpServer.start(config)
                : GridFtpServer.start(
                        config,
                        null,
                        DtpFactory.local(),
                        PopenPolicy.disabled(),
                        commands ->
                                commands.with(List.of(new SiteSetDiskStackHandler(PopenPolicy.disabled(), policy))));
        servers.add(server);
        return server;
    }
}
