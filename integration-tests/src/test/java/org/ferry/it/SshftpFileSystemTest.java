package org.ferry.it;

import java.io.IOException;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.ferry.it.infra.SshdServer;
import org.ferry.mover.client.SshftpSecurity;
import org.ferry.mover.nio.GridFtpFileSystemProvider;
import org.ferry.mover.nio.RemoteFileSystemContract;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The {@code Files} contract through an {@code sshftp://} file system: a real OpenSSH sshd on
 * loopback (a per-run test user, key authentication), and on the remote side the real
 * globus-gridftp-server started by the remote command its {@code globus-gridftp-server-enable-sshftp}
 * writes, one per session (the {@link SshftpInteropTest} fixture). Names are ASCII as for
 * {@link GlobusFileSystemTest}: that server's control channel drops bytes outside printable ASCII
 * here too (the provider refuses such names). A restart kills every session process sshd started.
 */
class SshftpFileSystemTest extends RemoteFileSystemContract {

    private static SshdServer sshd;
    private static FileSystem fileSystem;

    @BeforeAll
    static void start() throws Exception {
        GlobusTools.assumeInstalled();
        sshd = SshdServer.start();
        Path script = sshd.enableGlobusSshftp();
        SshftpSecurity security = SshftpSecurity.knownHosts(sshd.knownHosts())
                .withKeyFile(sshd.clientKey(), null)
                .withRemoteCommand(script.toString());
        fileSystem = FileSystems.newFileSystem(
                URI.create(sshd.sshftpBase() + "/"), smallWindows(Map.of(GridFtpFileSystemProvider.SSH, security)));
    }

    @AfterAll
    static void stop() throws IOException {
        if (fileSystem != null) {
            fileSystem.close();
        }
        if (sshd != null) {
            sshd.close();
        }
    }

    @Override
    protected Path newDirectory(String name) throws IOException {
        Path local = Files.createDirectories(sshd.directory().resolve("nio").resolve(name));
        sshd.chown(local.getParent());
        return fileSystem.getPath(local.toString());
    }

    @Override
    protected Path local(Path path) {
        return Path.of(path.toAbsolutePath().toString());
    }

    @Override
    protected List<String> awkwardNames() {
        return List.of("dir %41 x", "with space.txt", "100%.bin", "a%20b", "semi;colon=x");
    }

    @Override
    protected void restartServer() {
        sshd.killSessions();
    }
}
