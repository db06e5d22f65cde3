package org.ferry.gsi.name;

import java.util.Locale;
import java.util.Map;
import javax.security.auth.x500.X500Principal;
import org.bouncycastle.asn1.ASN1Encodable;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.ASN1String;
import org.bouncycastle.asn1.x500.AttributeTypeAndValue;
import org.bouncycastle.asn1.x500.RDN;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.style.BCStyle;

/**
 * Converts X.500 names to the OpenSSL {@code X509_NAME_oneline} form ({@code /C=US/O=Grid/CN=Jane})
 * and compares such strings the way Globus does.
 *
 * <p>The oneline form lists RDNs in DER order (most significant first), unlike RFC 2253 which
 * reverses them. Globus identities and grid-mapfile entries use this form (reference 4.4;
 * {@code gsi/gssapi/source/library/display_name.c}). Comparison follows
 * {@code globus_i_gsi_cert_utils_dn_cmp}: case-insensitive after mapping {@code /UID=} to
 * {@code /USERID=} and {@code /E=}, {@code /Email=} to {@code /emailAddress=}.
 */
public final class DistinguishedNames {

    /** OpenSSL short names ({@code OBJ_nid2sn}) for the attribute types seen in grid DNs. */
    private static final Map<ASN1ObjectIdentifier, String> SHORT_NAMES = Map.ofEntries(
            Map.entry(BCStyle.C, "C"),
            Map.entry(BCStyle.ST, "ST"),
            Map.entry(BCStyle.L, "L"),
            Map.entry(BCStyle.O, "O"),
            Map.entry(BCStyle.OU, "OU"),
            Map.entry(BCStyle.CN, "CN"),
            Map.entry(BCStyle.DC, "DC"),
            Map.entry(BCStyle.UID, "UID"),
            Map.entry(BCStyle.EmailAddress, "emailAddress"),
            Map.entry(BCStyle.SERIALNUMBER, "serialNumber"),
            Map.entry(BCStyle.STREET, "street"),
            Map.entry(BCStyle.T, "title"),
            Map.entry(BCStyle.GIVENNAME, "GN"),
            Map.entry(BCStyle.SURNAME, "SN"),
            Map.entry(BCStyle.POSTAL_CODE, "postalCode"));

    private DistinguishedNames() {}

    /**
     * Returns the OpenSSL oneline form of a name.
     *
     * @param principal an X.500 name as found in a certificate
     * @return e.g. {@code /O=Grid/OU=GlobusTest/CN=Jane Doe}; multi-valued RDNs are joined with
     *         {@code +} as OpenSSL does
     */
    public static String oneline(X500Principal principal) {
        return oneline(X500Name.getInstance(principal.getEncoded()));
    }

    /**
     * Returns the OpenSSL oneline form of a Bouncy Castle name.
     *
     * @param name an X.500 name
     * @return the oneline form, see {@link #oneline(X500Principal)}
     */
    public static String oneline(X500Name name) {
        StringBuilder out = new StringBuilder();
        for (RDN rdn : name.getRDNs()) {
            out.append('/');
            AttributeTypeAndValue[] values = rdn.getTypesAndValues();
            for (int i = 0; i < values.length; i++) {
                if (i > 0) {
                    out.append('+');
                }
                out.append(shortName(values[i].getType())).append('=').append(valueText(values[i].getValue()));
            }
        }
        return out.toString();
    }

    /**
     * Parses a oneline DN ({@code /O=Grid/CN=Jane}) into an X.500 name. Attribute names are the
     * OpenSSL short names (and their Globus aliases {@code E}, {@code Email}, {@code USERID}).
     * A {@code /} inside a value must be escaped as {@code \/}.
     *
     * @param oneline the DN string, starting with {@code /}
     * @return the name, RDNs in the given order
     * @throws IllegalArgumentException if the string is not a oneline DN
     */
    public static X500Name parseOneline(String oneline) {
        if (!oneline.startsWith("/")) {
            throw new IllegalArgumentException("not an OpenSSL oneline DN (must start with '/'): " + oneline);
        }
        org.bouncycastle.asn1.x500.X500NameBuilder builder =
                new org.bouncycastle.asn1.x500.X500NameBuilder(BCStyle.INSTANCE);
        StringBuilder part = new StringBuilder();
        for (int i = 1; i <= oneline.length(); i++) {
            char c = i < oneline.length() ? oneline.charAt(i) : '/';
            if (c == '\\' && i + 1 < oneline.length()) {
                part.append(oneline.charAt(++i));
            } else if (c == '/') {
                int eq = part.indexOf("=");
                if (eq <= 0) {
                    throw new IllegalArgumentException("malformed RDN '" + part + "' in DN " + oneline);
                }
                builder.addRDN(attributeType(part.substring(0, eq)), part.substring(eq + 1));
                part.setLength(0);
            } else {
                part.append(c);
            }
        }
        return builder.build();
    }

    /**
     * Normalises a oneline DN for comparison as Globus does: {@code /UID=} becomes
     * {@code /USERID=}, {@code /E=} and {@code /Email=} become {@code /emailAddress=}, then the
     * whole string is lower-cased.
     *
     * @param dn a oneline DN
     * @return the comparison key; never compare it with anything but another normalised DN
     */
    public static String normalise(String dn) {
        String s = dn.trim();
        s = replaceAttribute(s, "UID", "USERID");
        s = replaceAttribute(s, "E", "emailAddress");
        s = replaceAttribute(s, "Email", "emailAddress");
        return s.toLowerCase(Locale.ROOT);
    }

    /**
     * Compares two oneline DNs the way {@code globus_i_gsi_cert_utils_dn_cmp} does.
     *
     * @param a a oneline DN
     * @param b another oneline DN
     * @return true when both name the same subject
     */
    public static boolean sameDn(String a, String b) {
        return normalise(a).equals(normalise(b));
    }

    private static String replaceAttribute(String dn, String from, String to) {
        // Only whole attribute names directly after a '/' are rewritten, case-insensitively,
        // so a CN value containing "/E=" text escaped as "\/E=" is left alone.
        StringBuilder out = new StringBuilder(dn.length() + 8);
        int i = 0;
        while (i < dn.length()) {
            char c = dn.charAt(i);
            if (c == '\\' && i + 1 < dn.length()) {
                out.append(c).append(dn.charAt(i + 1));
                i += 2;
                continue;
            }
            if (c == '/' && dn.regionMatches(true, i + 1, from + "=", 0, from.length() + 1)) {
                out.append('/').append(to).append('=');
                i += from.length() + 2;
                continue;
            }
            out.append(c);
            i++;
        }
        return out.toString();
    }

    private static String shortName(ASN1ObjectIdentifier type) {
        String name = SHORT_NAMES.get(type);
        return name != null ? name : type.getId();
    }

    private static ASN1ObjectIdentifier attributeType(String name) {
        for (Map.Entry<ASN1ObjectIdentifier, String> e : SHORT_NAMES.entrySet()) {
            if (e.getValue().equalsIgnoreCase(name)) {
                return e.getKey();
            }
        }
        switch (name.toUpperCase(Locale.ROOT)) {
            case "E", "EMAIL":
                return BCStyle.EmailAddress;
            case "USERID":
                return BCStyle.UID;
            default:
                try {
                    return new ASN1ObjectIdentifier(name);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("unknown DN attribute type: " + name, e);
                }
        }
    }

    private static String valueText(ASN1Encodable value) {
        if (value instanceof ASN1String s) {
            return s.getString();
        }
        return value.toString();
    }
}
