package org.ferry.api.activation;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.ferry.api.credential.EndpointSecrets;
import org.ferry.api.domain.Endpoint;
import org.ferry.api.domain.PendingDelegation;
import org.ferry.api.repository.PendingDelegationRepository;
import org.ferry.gsi.credential.GsiCredential;
import org.ferry.gsi.trust.CertificateValidationException;
import org.ferry.gsi.trust.TrustCache;
import org.ferry.gsi.trust.TrustRoots;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

/**
 * Delegate-proxy activation, as GSI delegation splits it: the service makes a key pair and offers
 * the public key ({@code delegate_proxy.public_key}, PEM); the user's client signs a proxy
 * certificate for it with the user's own credential and sends the chain back
 * ({@code delegate_proxy.proxy_chain}: the new proxy first, then the user's chain). Neither private
 * key leaves its side. The chain must be for this key and validate against the site's CAs plus the
 * user's bootstrapped roots.
 */
@Component
public class DelegatedProxyActivation {

    /** A key pair older than this is replaced on the next requirements request. */
    static final Duration KEY_PAIR_LIFETIME = Duration.ofHours(12);

    private static final int KEY_BITS = 2048;

    private final PendingDelegationRepository pending;
    private final EndpointSecrets secrets;
    private final TrustCache trust;
    private final Clock clock;

    /**
     * @param pending the key pairs waiting for a proxy
     * @param secrets seals the private keys
     * @param trust validates the chains
     * @param clock what "now" is
     */
    public DelegatedProxyActivation(
            PendingDelegationRepository pending, EndpointSecrets secrets, TrustCache trust, Clock clock) {
        this.pending = pending;
        this.secrets = secrets;
        this.trust = trust;
        this.clock = clock;
    }

    /**
     * @param endpoint the endpoint
     * @param user the user
     * @return the public key (PEM) the user's proxy must certify: the pending one, or a new one
     */
    @Transactional
    public String publicKey(Endpoint endpoint, String user) {
        PendingDelegation current =
                pending.findByEndpointIdAndOwnerName(endpoint.getId(), user).orElse(null);
        if (current != null && current.getCreatedTime().plus(KEY_PAIR_LIFETIME).isAfter(clock.instant())) {
            return current.getPublicKey();
        }
        if (current != null) {
            pending.delete(current);
            pending.flush();
        }
        KeyPair pair;
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(KEY_BITS, new SecureRandom());
            pair = generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("RSA key generation is not available", e);
        }
        PendingDelegation made = new PendingDelegation(
                endpoint.getId(), user, pem("PUBLIC KEY", pair.getPublic().getEncoded()));
        made.setSealedPrivateKey(secrets.seal(
                Base64.getEncoder().encodeToString(pair.getPrivate().getEncoded()),
                EndpointSecrets.delegationKeyContext(made.getId())));
        pending.save(made);
        return made.getPublicKey();
    }

    /**
     * @param endpoint the endpoint
     * @param user the user
     * @param proxyChain the PEM chain the user's client made (certificates only)
     * @param userRoots the user's bootstrapped roots
     * @return the credential: the pending private key with the chain; the key pair is used up
     * @throws ActivationFailedException 400 {@code ClientError.ActivationFailed} ({@link ActivationFailedException}) if no key
     *     pair is pending, the chain holds a private key, is not for the pending key, or does not
     *     validate (e.g. an expired proxy)
     */
    @Transactional
    public GsiCredential complete(Endpoint endpoint, String user, String proxyChain, TrustRoots userRoots) {
        if (proxyChain.contains("PRIVATE KEY")) {
            throw MyProxyActivation.failed(
                    "proxy_chain must hold certificates only: a private key never leaves your machine");
        }
        PendingDelegation current = pending.findByEndpointIdAndOwnerName(endpoint.getId(), user)
                .orElseThrow(
                        () -> MyProxyActivation.failed("No public key is pending for " + endpoint.getCanonicalName()
                                + ": get the activation requirements first (they carry the public key to sign)"));
        List<X509Certificate> chain = parseChain(proxyChain);
        if (!java.util.Arrays.equals(chain.get(0).getPublicKey().getEncoded(), publicKeyDer(current.getPublicKey()))) {
            throw MyProxyActivation.failed("proxy_chain does not certify the public key offered for "
                    + endpoint.getCanonicalName() + ": sign the public_key of the latest activation requirements");
        }
        try {
            trust.trust(userRoots).validator().validate(chain);
        } catch (CertificateValidationException e) {
            throw MyProxyActivation.failed("The delegated proxy is not valid: " + e.getMessage());
        } catch (java.io.IOException e) {
            throw new IllegalStateException("cannot read the trust directory: " + e.getMessage(), e);
        }
        PrivateKey key = privateKey(current);
        pending.delete(current);
        return new GsiCredential(key, chain);
    }

    private PrivateKey privateKey(PendingDelegation current) {
        try {
            byte[] der = Base64.getDecoder()
                    .decode(secrets.open(
                            current.getSealedPrivateKey(), EndpointSecrets.delegationKeyContext(current.getId())));
            return KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(der));
        } catch (GeneralSecurityException e) {
            throw MyProxyActivation.failed("The pending key pair cannot be read (" + e.getMessage()
                    + "): get the activation requirements again");
        }
    }

    private static List<X509Certificate> parseChain(String pem) {
        try {
            List<X509Certificate> chain = new ArrayList<>();
            for (var c : CertificateFactory.getInstance("X.509")
                    .generateCertificates(new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)))) {
                chain.add((X509Certificate) c);
            }
            if (chain.isEmpty()) {
                throw MyProxyActivation.failed("proxy_chain holds no certificate");
            }
            return chain;
        } catch (CertificateException e) {
            throw MyProxyActivation.failed("proxy_chain is not a PEM certificate chain: " + e.getMessage());
        }
    }

    private static byte[] publicKeyDer(String pem) {
        String body = pem.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
        return Base64.getDecoder().decode(body);
    }

    static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n"
                + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der) + "\n-----END " + type
                + "-----\n";
    }
}
