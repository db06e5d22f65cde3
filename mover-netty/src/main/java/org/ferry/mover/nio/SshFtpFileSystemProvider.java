package org.ferry.mover.nio;

import org.ferry.mover.client.GridFtpClient;
import org.ferry.mover.client.GridFtpUrl;
import org.ferry.mover.client.SshftpSecurity;

/**
 * {@code sshftp://} paths: the control channel runs over SSH to a GridFTP server the remote
 * account starts for the session (the remote command of globus-url-copy's gridftp-ssh, see
 * docs/sshftp.md), data channels over TCP, as {@link GridFtpClient#openSsh} does. Host keys, login
 * keys and the remote command come from the {@code env} map's {@value GridFtpFileSystemProvider#SSH}
 * entry, or are what the {@code ssh} command would use ({@link SshftpSecurity#userDefaults()}:
 * {@code ~/.ssh/known_hosts}, the agent, unencrypted {@code ~/.ssh/id_*}). The user is the URI's,
 * else the {@code env} map's, else this process's; port 22 when the URI names none. Installed
 * through {@code META-INF/services}.
 */
public final class SshFtpFileSystemProvider extends GridFtpFileSystemProvider {

    /** The provider of the {@code sshftp} scheme. */
    public SshFtpFileSystemProvider() {
        super("sshftp");
    }

    @Override
    Sessions sessions(FileSystemKey key, FileSystemSettings settings, GridFtpClient client) {
        GridFtpUrl url = new GridFtpUrl(
                "sshftp",
                FtpFileSystemProvider.hostOf(key),
                key.port(),
                settings.user() == null ? System.getProperty("user.name") : settings.user(),
                "", // the pre-authenticated server ignores PASS
                "/");
        SshftpSecurity given = settings.ssh();
        return new Sessions(() -> client.openSsh(url, given != null ? given : SshftpSecurity.userDefaults()), null);
    }
}
