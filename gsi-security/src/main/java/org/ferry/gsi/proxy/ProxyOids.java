package org.ferry.gsi.proxy;

import org.bouncycastle.asn1.ASN1ObjectIdentifier;

/** Object identifiers of proxy certificates (RFC 3820 sections 3.8 and 7; Globus proxycertinfo.h). */
public final class ProxyOids {
    /** RFC 3820 ProxyCertInfo extension. */
    public static final ASN1ObjectIdentifier PROXY_CERT_INFO_RFC = new ASN1ObjectIdentifier("1.3.6.1.5.5.7.1.14");
    /** GT3 draft ProxyCertInfo extension. */
    public static final ASN1ObjectIdentifier PROXY_CERT_INFO_DRAFT = new ASN1ObjectIdentifier("1.3.6.1.4.1.3536.1.222");
    /** id-ppl-inheritAll. */
    public static final ASN1ObjectIdentifier INHERIT_ALL = new ASN1ObjectIdentifier("1.3.6.1.5.5.7.21.1");
    /** id-ppl-independent. */
    public static final ASN1ObjectIdentifier INDEPENDENT = new ASN1ObjectIdentifier("1.3.6.1.5.5.7.21.2");
    /** id-ppl-anyLanguage. */
    public static final ASN1ObjectIdentifier ANY_LANGUAGE = new ASN1ObjectIdentifier("1.3.6.1.5.5.7.21.0");
    /** Globus limited proxy policy. */
    public static final ASN1ObjectIdentifier GLOBUS_LIMITED = new ASN1ObjectIdentifier("1.3.6.1.4.1.3536.1.1.1.9");

    private ProxyOids() {}
}
