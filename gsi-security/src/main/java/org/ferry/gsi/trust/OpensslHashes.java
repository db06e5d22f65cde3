package org.ferry.gsi.trust;

import eu.emi.security.authn.x509.helpers.trust.OpensslTruststoreHelper;
import javax.security.auth.x500.X500Principal;

/**
 * OpenSSL subject name hashes ({@code X509_NAME_hash}, the OpenSSL 1.0+ SHA-1 based form printed
 * by {@code openssl x509 -hash}), which name the files of a trust directory (reference 5.3).
 */
public final class OpensslHashes {

    private OpensslHashes() {}

    /**
     * @param name a CA subject
     * @return 8 lowercase hex digits, e.g. {@code 3f2a9c01}, as in {@code <hash>.0}
     */
    public static String subjectHash(X500Principal name) {
        return OpensslTruststoreHelper.getOpenSSLCAHash(name, true);
    }
}
