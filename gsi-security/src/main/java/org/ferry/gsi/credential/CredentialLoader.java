package org.ferry.gsi.credential;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.util.Map;

/**
 * Finds and loads the credential of a process the way Globus does
 * ({@code globus_gsi_system_config.c}, reference 5.3): a proxy from {@code X509_USER_PROXY} or
 * {@code /tmp/x509up_u<uid>}; a host credential from {@code X509_USER_CERT}/{@code X509_USER_KEY}
 * or {@code /etc/grid-security/hostcert.pem}/{@code hostkey.pem}.
 *
 * <p>The environment is passed in (not read from {@link System#getenv()} inside) so that tests
 * and embedded services can point at their own files.
 */
public final class CredentialLoader {
    private final Map<String, String> env;
    private final long uid;

    /**
     * @param env the environment variables to honour
     * @param uid the numeric Unix user id, for {@code /tmp/x509up_u<uid>}
     */
    public CredentialLoader(Map<String, String> env, long uid) {
        this.env = Map.copyOf(env);
        this.uid = uid;
    }

    /** @return a loader for this process: its environment and Unix uid */
    public static CredentialLoader forCurrentProcess() {
        return new CredentialLoader(System.getenv(), new com.sun.security.auth.module.UnixSystem().getUid());
    }

    /** @return {@code X509_USER_PROXY}, else {@code /tmp/x509up_u<uid>} */
    public Path proxyPath() {
        String p = env.get("X509_USER_PROXY");
        return p != null && !p.isEmpty() ? Path.of(p) : Path.of("/tmp/x509up_u" + uid);
    }

    /**
     * Loads the user's proxy.
     *
     * @return the proxy credential
     * @throws IOException              if there is no proxy file ("run grid-proxy-init") or it is unreadable
     * @throws GeneralSecurityException if the key does not match
     */
    public GsiCredential loadProxy() throws IOException, GeneralSecurityException {
        Path p = proxyPath();
        if (!Files.isRegularFile(p)) {
            throw new IOException("no proxy credential at " + p + " (run grid-proxy-init or set X509_USER_PROXY)");
        }
        return PemFiles.readCredential(p);
    }

    /** @return {@code X509_USER_CERT}, else {@code /etc/grid-security/hostcert.pem} */
    public Path hostCertificatePath() {
        return variableOr("X509_USER_CERT", "/etc/grid-security/hostcert.pem");
    }

    /** @return {@code X509_USER_KEY}, else {@code /etc/grid-security/hostkey.pem} */
    public Path hostKeyPath() {
        return variableOr("X509_USER_KEY", "/etc/grid-security/hostkey.pem");
    }

    /** @return {@code X509_CERT_DIR}, else {@code /etc/grid-security/certificates} */
    public Path trustDirectory() {
        return variableOr("X509_CERT_DIR", "/etc/grid-security/certificates");
    }

    /** @return {@code GRIDMAP}, else {@code /etc/grid-security/grid-mapfile} */
    public Path gridMapPath() {
        return variableOr("GRIDMAP", "/etc/grid-security/grid-mapfile");
    }

    /**
     * @param name an environment variable
     * @return true if it is set to a non-empty value (an empty one counts as unset, as in Globus)
     */
    public boolean isSet(String name) {
        String value = env.get(name);
        return value != null && !value.isEmpty();
    }

    private Path variableOr(String name, String fallback) {
        return Path.of(isSet(name) ? env.get(name) : fallback);
    }
}
