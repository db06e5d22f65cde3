package org.ferry.gsi.trust;

import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.List;

/** The CA certificates a relying party trusts, as read from a trust directory. */
public interface TrustStore {

    /** @return the directory the anchors were read from ({@code X509_CERT_DIR} layout) */
    Path directory();

    /** @return the trusted CA certificates, in no particular order */
    List<X509Certificate> caCertificates();
}
