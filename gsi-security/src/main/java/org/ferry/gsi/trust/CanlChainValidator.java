package org.ferry.gsi.trust;

import eu.emi.security.authn.x509.CrlCheckingMode;
import eu.emi.security.authn.x509.NamespaceCheckingMode;
import eu.emi.security.authn.x509.ProxySupport;
import eu.emi.security.authn.x509.ValidationError;
import eu.emi.security.authn.x509.ValidationResult;
import eu.emi.security.authn.x509.impl.CRLParameters;
import eu.emi.security.authn.x509.impl.OpensslCertChainValidator;
import eu.emi.security.authn.x509.impl.RevocationParametersExt;
import eu.emi.security.authn.x509.impl.ValidatorParams;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.stream.Collectors;
import org.ferry.gsi.name.DistinguishedNames;
import org.ferry.gsi.proxy.ProxyCertificates;

/**
 * {@link ChainValidator} on canl's {@code OpensslCertChainValidator}: trust anchors from an OpenSSL
 * hashed directory, Globus {@code .signing_policy} files (and EUGridPMA {@code .namespaces} if
 * present), CRLs from {@code <hash>.r<n>} checked when present, RFC 3820 proxies of all three
 * formats allowed.
 *
 * <p>Close it to stop canl's internals; it does not refresh the directory by itself (update
 * interval off), so make a new validator when the directory changes.
 */
public final class CanlChainValidator implements ChainValidator, AutoCloseable {
    private final OpensslCertChainValidator validator;

    /**
     * @param trustDirectory the {@code X509_CERT_DIR}
     * @param crlRequired    true to reject chains whose CA has no valid CRL; false to check CRLs
     *                       only where present (Globus' behaviour)
     */
    public CanlChainValidator(Path trustDirectory, boolean crlRequired) {
        RevocationParametersExt revocation = new RevocationParametersExt(
                crlRequired ? CrlCheckingMode.REQUIRE : CrlCheckingMode.IF_VALID, new CRLParameters());
        ValidatorParams params = new ValidatorParams(revocation, ProxySupport.ALLOW);
        // openssl1Mode=true: the SHA-1 subject hash of OpenSSL >= 1.0 names the files.
        // updateInterval -1: no background refresh thread.
        this.validator = new OpensslCertChainValidator(
                trustDirectory.toString(), true, NamespaceCheckingMode.GLOBUS_EUGRIDPMA, -1, params, false);
    }

    /** @param trustDirectory the {@code X509_CERT_DIR}; CRLs checked where present */
    public CanlChainValidator(Path trustDirectory) {
        this(trustDirectory, false);
    }

    @Override
    public ValidatedChain validate(List<X509Certificate> chain) throws CertificateValidationException {
        if (chain.isEmpty()) {
            throw new CertificateValidationException("no certificate presented");
        }
        X509Certificate[] array = chain.toArray(X509Certificate[]::new);
        ValidationResult result = validator.validate(array);
        if (!result.isValid()) {
            throw new CertificateValidationException(describe(chain, result.getErrors()));
        }
        try {
            return new ValidatedChain(chain, ProxyCertificates.identity(chain), ProxyCertificates.isLimited(chain));
        } catch (IllegalArgumentException e) {
            throw new CertificateValidationException("certificate chain rejected: " + e.getMessage());
        }
    }

    private static String describe(List<X509Certificate> chain, List<ValidationError> errors) {
        String subject = DistinguishedNames.oneline(chain.get(0).getSubjectX500Principal());
        return "certificate chain of " + subject + " rejected: "
                + errors.stream()
                        .map(e -> {
                            int pos = e.getPosition();
                            String where = pos >= 0 && pos < chain.size()
                                    ? " ["
                                            + DistinguishedNames.oneline(
                                                    chain.get(pos).getSubjectX500Principal()) + "]"
                                    : "";
                            return e.getMessage() + where;
                        })
                        .distinct()
                        .collect(Collectors.joining("; "));
    }

    @Override
    public void close() {
        validator.dispose();
    }
}
