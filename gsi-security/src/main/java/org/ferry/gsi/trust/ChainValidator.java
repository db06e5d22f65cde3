package org.ferry.gsi.trust;

import java.security.cert.X509Certificate;
import java.util.List;

/**
 * Validates a GSI certificate chain: RFC 5280 path validation to a trusted CA with the RFC 3820
 * section 4 proxy rules (each proxy signed by its predecessor, subject = issuer + one CN, path
 * length, key usage, validity, no unlimited proxy under a limited one, no mixing of proxy formats),
 * Globus signing policies and CRLs for the CA-issued part (reference 5.2).
 */
public interface ChainValidator {

    /**
     * @param chain the peer's chain, leaf first; CA certificates may be omitted
     * @return the validated chain with its identity
     * @throws CertificateValidationException with a message for the user if the chain is rejected
     */
    ValidatedChain validate(List<X509Certificate> chain) throws CertificateValidationException;
}
