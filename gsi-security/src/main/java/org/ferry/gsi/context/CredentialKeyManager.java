package org.ferry.gsi.context;

import java.net.Socket;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;
import org.ferry.gsi.credential.GsiCredential;

/**
 * Presents one {@link GsiCredential} (possibly a proxy chain) to JSSE, without a KeyStore. The
 * alias is offered only for key types matching the key (so JSSE does not pick EC suites for an
 * RSA key), and regardless of the issuers the peer asked for: a proxy's issuer is never a CA.
 */
final class CredentialKeyManager extends X509ExtendedKeyManager {
    private static final String ALIAS = "gsi";
    private final GsiCredential credential;

    CredentialKeyManager(GsiCredential credential) {
        this.credential = credential;
    }

    private String aliasFor(String keyType) {
        String alg = credential.privateKey().getAlgorithm();
        return keyType.equals(alg)
                        || keyType.startsWith(alg + "_")
                        || (alg.equals("RSA") && keyType.equals("RSASSA-PSS"))
                ? ALIAS
                : null;
    }

    private String aliasFor(String[] keyTypes) {
        for (String t : keyTypes) {
            if (aliasFor(t) != null) {
                return ALIAS;
            }
        }
        return null;
    }

    @Override
    public String[] getClientAliases(String keyType, Principal[] issuers) {
        return aliasFor(keyType) == null ? null : new String[] {ALIAS};
    }

    @Override
    public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
        return aliasFor(keyType);
    }

    @Override
    public String chooseEngineClientAlias(String[] keyType, Principal[] issuers, SSLEngine engine) {
        return aliasFor(keyType);
    }

    @Override
    public String[] getServerAliases(String keyType, Principal[] issuers) {
        return getClientAliases(keyType, issuers);
    }

    @Override
    public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
        return aliasFor(keyType);
    }

    @Override
    public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
        return aliasFor(keyType);
    }

    @Override
    public X509Certificate[] getCertificateChain(String alias) {
        return ALIAS.equals(alias) ? credential.chain().toArray(X509Certificate[]::new) : null;
    }

    @Override
    public PrivateKey getPrivateKey(String alias) {
        return ALIAS.equals(alias) ? credential.privateKey() : null;
    }
}
