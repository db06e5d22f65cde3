package org.ferry.gsi.proxy;

import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Optional;
import org.bouncycastle.asn1.ASN1Encodable;
import org.bouncycastle.asn1.ASN1Integer;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.ASN1OctetString;
import org.bouncycastle.asn1.ASN1Primitive;
import org.bouncycastle.asn1.ASN1Sequence;
import org.bouncycastle.asn1.ASN1TaggedObject;
import org.bouncycastle.asn1.x500.RDN;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.ferry.gsi.name.DistinguishedNames;

/**
 * Recognises proxy certificates and derives the identity of a chain.
 *
 * <p>Recognition follows {@code globus_gsi_cert_utils_get_cert_type} (reference 5.1): a
 * ProxyCertInfo extension counts only when critical; a legacy proxy is a certificate without it
 * whose subject is its issuer plus {@code CN=proxy} or {@code CN=limited proxy}.
 */
public final class ProxyCertificates {

    private ProxyCertificates() {}

    /**
     * Classifies a certificate.
     *
     * @param cert any certificate
     * @return its proxy properties, or empty for an end-entity or CA certificate
     * @throws IllegalArgumentException if a critical ProxyCertInfo extension cannot be parsed
     */
    public static Optional<ProxyInfo> info(X509Certificate cert) {
        byte[] rfc = criticalExtension(cert, ProxyOids.PROXY_CERT_INFO_RFC);
        if (rfc != null) {
            return Optional.of(parseRfc(rfc));
        }
        byte[] draft = criticalExtension(cert, ProxyOids.PROXY_CERT_INFO_DRAFT);
        if (draft != null) {
            return Optional.of(parseDraft(draft));
        }
        return legacy(cert);
    }

    /**
     * @param cert any certificate
     * @return true when {@code cert} is a proxy certificate of any format
     */
    public static boolean isProxy(X509Certificate cert) {
        return info(cert).isPresent();
    }

    /**
     * Finds the end-entity certificate (EEC) of a chain: the first certificate, counting from the
     * leaf, that is not a proxy.
     *
     * @param chain leaf first
     * @return the EEC
     * @throws IllegalArgumentException if the chain holds only proxies
     */
    public static X509Certificate endEntity(List<X509Certificate> chain) {
        for (X509Certificate c : chain) {
            if (!isProxy(c)) {
                return c;
            }
        }
        throw new IllegalArgumentException("certificate chain has no end-entity certificate, only proxies");
    }

    /**
     * The GSI identity of a chain: the EEC subject in OpenSSL oneline form, proxy CNs stripped
     * (reference 4.4).
     *
     * @param chain leaf first
     * @return e.g. {@code /O=Grid/OU=Test/CN=Jane Doe}
     */
    public static String identity(List<X509Certificate> chain) {
        return DistinguishedNames.oneline(endEntity(chain).getSubjectX500Principal());
    }

    /**
     * Whether any proxy in the chain is a limited proxy. RFC 3820 section 4.1.3 lets the effective
     * rights only shrink down a chain, so one limited link makes the whole chain limited.
     *
     * @param chain leaf first
     * @return true when limited
     */
    public static boolean isLimited(List<X509Certificate> chain) {
        return chain.stream()
                .map(ProxyCertificates::info)
                .anyMatch(i -> i.map(ProxyInfo::limited).orElse(false));
    }

    private static byte[] criticalExtension(X509Certificate cert, ASN1ObjectIdentifier oid) {
        if (cert.getCriticalExtensionOIDs() == null
                || !cert.getCriticalExtensionOIDs().contains(oid.getId())) {
            return null;
        }
        byte[] wrapped = cert.getExtensionValue(oid.getId());
        return ASN1OctetString.getInstance(wrapped).getOctets();
    }

    private static ProxyInfo parseRfc(byte[] der) {
        // ProxyCertInfo ::= SEQUENCE { pCPathLenConstraint INTEGER OPTIONAL, proxyPolicy ProxyPolicy }
        ASN1Sequence seq = ASN1Sequence.getInstance(der);
        int pathLength = -1;
        int i = 0;
        if (seq.getObjectAt(0) instanceof ASN1Integer n) {
            pathLength = n.intValueExact();
            i = 1;
        }
        return new ProxyInfo(ProxyFormat.RFC3820, policyKind(seq.getObjectAt(i)), pathLength);
    }

    private static ProxyInfo parseDraft(byte[] der) {
        // GT3: SEQUENCE { proxyPolicy ProxyPolicy, [1] EXPLICIT pCPathLenConstraint INTEGER OPTIONAL }
        ASN1Sequence seq = ASN1Sequence.getInstance(der);
        int pathLength = -1;
        ASN1Encodable policy = null;
        for (ASN1Encodable e : seq) {
            if (e instanceof ASN1TaggedObject t) {
                pathLength = ASN1Integer.getInstance(t.getExplicitBaseObject()).intValueExact();
            } else if (e instanceof ASN1Integer n) {
                pathLength = n.intValueExact();
            } else {
                policy = e;
            }
        }
        if (policy == null) {
            throw new IllegalArgumentException("GT3 ProxyCertInfo without a proxy policy");
        }
        return new ProxyInfo(ProxyFormat.GT3_DRAFT, policyKind(policy), pathLength);
    }

    private static ProxyPolicyKind policyKind(ASN1Encodable policy) {
        ASN1Primitive language = ASN1Sequence.getInstance(policy).getObjectAt(0).toASN1Primitive();
        ASN1ObjectIdentifier oid = ASN1ObjectIdentifier.getInstance(language);
        if (oid.equals(ProxyOids.INHERIT_ALL)) {
            return ProxyPolicyKind.IMPERSONATION;
        } else if (oid.equals(ProxyOids.GLOBUS_LIMITED)) {
            return ProxyPolicyKind.LIMITED;
        } else if (oid.equals(ProxyOids.INDEPENDENT)) {
            return ProxyPolicyKind.INDEPENDENT;
        }
        return ProxyPolicyKind.RESTRICTED;
    }

    private static Optional<ProxyInfo> legacy(X509Certificate cert) {
        X500Name subject = X500Name.getInstance(cert.getSubjectX500Principal().getEncoded());
        RDN[] rdns = subject.getRDNs();
        if (rdns.length < 2
                || rdns[rdns.length - 1].isMultiValued()
                || !BCStyle.CN.equals(rdns[rdns.length - 1].getFirst().getType())) {
            return Optional.empty();
        }
        String cn = rdns[rdns.length - 1].getFirst().getValue().toString();
        if (!cn.equals("proxy") && !cn.equals("limited proxy")) {
            return Optional.empty();
        }
        RDN[] base = java.util.Arrays.copyOf(rdns, rdns.length - 1);
        X500Name issuer = X500Name.getInstance(cert.getIssuerX500Principal().getEncoded());
        if (!new X500Name(base).equals(issuer)) {
            return Optional.empty();
        }
        ProxyPolicyKind kind = cn.equals("proxy") ? ProxyPolicyKind.IMPERSONATION : ProxyPolicyKind.LIMITED;
        return Optional.of(new ProxyInfo(ProxyFormat.LEGACY, kind, -1));
    }
}
