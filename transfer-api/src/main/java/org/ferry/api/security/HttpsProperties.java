package org.ferry.api.security;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The HTTPS listener with X.509 client certificates ({@code ferry.https.*}): when {@code port}
 * is set, ferry-server also listens there with TLS, asks for a client certificate (proxy
 * certificates included), validates its chain against {@code caDir} and maps the identity's DN
 * to an account through {@code gridmap}. Files are named as for {@code ferry-gridftp --gsi}.
 *
 * @param port the HTTPS port (0: any free port); unset: no HTTPS listener
 * @param address the listen address (default {@code server.address})
 * @param hostCert the server's certificate, PEM (default {@code /etc/grid-security/hostcert.pem})
 * @param hostKey its unencrypted key, PEM (default {@code /etc/grid-security/hostkey.pem})
 * @param caDir OpenSSL hashed CA directory with signing policies and CRLs (default
 *     {@code /etc/grid-security/certificates})
 * @param gridmap {@code "DN" account} lines (default {@code /etc/grid-security/grid-mapfile}),
 *     re-read when it changes
 */
@ConfigurationProperties("ferry.https")
public record HttpsProperties(
        Integer port, String address, String hostCert, String hostKey, String caDir, String gridmap) {

    /** @return whether the HTTPS listener is on */
    public boolean enabled() {
        return port != null;
    }

    /** @return the host certificate file */
    public String hostCertFile() {
        return hostCert == null ? "/etc/grid-security/hostcert.pem" : hostCert;
    }

    /** @return the host key file */
    public String hostKeyFile() {
        return hostKey == null ? "/etc/grid-security/hostkey.pem" : hostKey;
    }

    /** @return the CA directory */
    public String caDirectory() {
        return caDir == null ? "/etc/grid-security/certificates" : caDir;
    }

    /** @return the grid-mapfile */
    public String gridmapFile() {
        return gridmap == null ? "/etc/grid-security/grid-mapfile" : gridmap;
    }
}
