package org.ferry.mover.nio;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.util.HashMap;
import java.util.Map;
import org.ferry.gsi.context.GsiEngines;
import org.ferry.gsi.credential.CredentialLoader;
import org.ferry.gsi.credential.GsiCredential;
import org.ferry.gsi.trust.CanlChainValidator;
import org.ferry.gsi.trust.OpensslTrustDirectory;
import org.ferry.mover.client.GridFtpClient;
import org.ferry.mover.client.GridFtpUrl;
import org.ferry.mover.client.GsiClientSecurity;

/**
 * {@code gsiftp://} paths: GSI authentication ({@code AUTH GSSAPI}/{@code ADAT}, RFC 2228 section 3
 * with the GSI mechanism), a limited proxy delegated, data channels authenticated (DCAU A when the
 * server lists DCAU, GFD.020), then {@code USER :globus-mapping:} unless a user is named, as
 * globus-url-copy does. The credential and trust come from the {@code env} map's
 * {@value GridFtpFileSystemProvider#GSI} entry, or from the environment as the Globus tools read it
 * ({@link CredentialLoader}): the proxy from {@code X509_USER_PROXY} or {@code /tmp/x509up_u<uid>}
 * (read again for every new session, so a renewed proxy is used), the trusted CAs from
 * {@code X509_CERT_DIR} or {@code /etc/grid-security/certificates}; the {@code env} map may name both
 * variables. A missing proxy fails the first operation with an {@link IOException} that says to run
 * grid-proxy-init. Installed through {@code META-INF/services}.
 */
public final class GsiFtpFileSystemProvider extends GridFtpFileSystemProvider {

    /**
     * The provider of the {@code gsiftp} scheme. Makes this JVM's TLS servers ignore SNI
     * ({@link GsiEngines#ignoreServerNameIndication}) unless {@code jdk.tls.server.disableExtensions}
     * is set already: a download's data connections come from the server, and globus-gridftp-server
     * sends a DN as SNI on them, which the JDK refuses. The setting takes effect only before the
     * JVM's first TLS handshake as a server; an application that serves TLS itself before it loads
     * this provider sets it on its command line instead.
     */
    public GsiFtpFileSystemProvider() {
        super("gsiftp");
        GsiEngines.ignoreServerNameIndication();
    }

    @Override
    Sessions sessions(FileSystemKey key, FileSystemSettings settings, GridFtpClient client) {
        GridFtpUrl url = new GridFtpUrl(
                "gsiftp",
                FtpFileSystemProvider.hostOf(key),
                key.port(),
                settings.user() == null ? "anonymous" : settings.user(), // anonymous: :globus-mapping:
                settings.password() == null ? "globus@" : settings.password(),
                "/");
        Credentials credentials = new Credentials(settings);
        return new Sessions(() -> client.open(url, credentials.security()), credentials);
    }

    /** The GSI material of one file system, found when a session first needs it. */
    private static final class Credentials implements Closeable {
        private final FileSystemSettings settings;
        private CanlChainValidator validator;
        private OpensslTrustDirectory trust;

        Credentials(FileSystemSettings settings) {
            this.settings = settings;
        }

        synchronized GsiClientSecurity security() throws IOException {
            if (settings.gsi() != null) {
                return settings.gsi();
            }
            Map<String, String> environment = new HashMap<>(System.getenv());
            environment.putAll(settings.environment());
            CredentialLoader loader =
                    new CredentialLoader(environment, new com.sun.security.auth.module.UnixSystem().getUid());
            Path trustDirectory = loader.trustDirectory();
            if (validator == null) {
                if (!java.nio.file.Files.isDirectory(trustDirectory)) {
                    throw new IOException("no trusted CA directory at " + trustDirectory
                            + " (set X509_CERT_DIR, or install the CA certificates there)");
                }
                trust = OpensslTrustDirectory.load(trustDirectory);
                validator = new CanlChainValidator(trustDirectory);
            }
            GsiCredential proxy;
            try {
                proxy = loader.loadProxy();
            } catch (GeneralSecurityException e) {
                throw new IOException("cannot read the proxy " + loader.proxyPath() + ": " + e.getMessage(), e);
            }
            return GsiClientSecurity.of(proxy, validator, trust);
        }

        @Override
        public synchronized void close() {
            if (validator != null) {
                validator.close();
            }
        }
    }
}
