package org.ferry.gsi.proxy;

/**
 * The three generations of Globus proxy certificates (reference 5.1;
 * {@code globus_gsi_cert_utils_get_cert_type}).
 */
public enum ProxyFormat {
    /** RFC 3820: critical ProxyCertInfo extension, OID 1.3.6.1.5.5.7.1.14. */
    RFC3820,
    /** GT3 pre-RFC draft: critical extension OID 1.3.6.1.4.1.3536.1.222. */
    GT3_DRAFT,
    /** GT2 legacy: last RDN {@code CN=proxy} or {@code CN=limited proxy}, no extension. */
    LEGACY
}
