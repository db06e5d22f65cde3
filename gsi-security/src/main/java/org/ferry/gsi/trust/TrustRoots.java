package org.ferry.gsi.trust;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.cert.CertificateEncodingException;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The files of an OpenSSL hashed trust directory as values (reference 5.3; what a MyProxy server
 * hands out as trust roots, {@code myproxy-logon -T}): CA certificates {@code <hash>.<n>}, Globus
 * signing policies {@code <hash>.signing_policy}, EUGridPMA {@code <hash>.namespaces} and CRLs
 * {@code <hash>.r<n>}. Other names are refused, so no file can leave the directory it is written
 * to. Immutable.
 */
public final class TrustRoots {

    /** No files. */
    public static final TrustRoots EMPTY = new TrustRoots(new TreeMap<>());

    private static final Pattern NAME = Pattern.compile("[0-9a-f]{8}\\.([0-9]+|r[0-9]+|signing_policy|namespaces)");
    private static final Pattern CERTIFICATE = Pattern.compile("[0-9a-f]{8}\\.[0-9]+");

    private final SortedMap<String, byte[]> files;

    private TrustRoots(SortedMap<String, byte[]> files) {
        this.files = files;
    }

    /**
     * @param files file name to content
     * @return the roots
     * @throws IllegalArgumentException if a name is not a trust directory file name
     */
    public static TrustRoots of(Map<String, byte[]> files) {
        SortedMap<String, byte[]> copy = new TreeMap<>();
        files.forEach((name, content) -> {
            if (!isTrustFileName(name)) {
                throw new IllegalArgumentException("not a trust directory file name: '" + name + "'");
            }
            copy.put(name, content.clone());
        });
        return new TrustRoots(copy);
    }

    /**
     * @param name a file name
     * @return true for {@code <hash>.<n>}, {@code <hash>.r<n>}, {@code <hash>.signing_policy},
     *     {@code <hash>.namespaces}
     */
    public static boolean isTrustFileName(String name) {
        return NAME.matcher(name).matches();
    }

    /**
     * @param ca a CA certificate
     * @return roots holding just it, as {@code <hash>.0} (PEM)
     */
    public static TrustRoots ofCertificate(X509Certificate ca) {
        try {
            String pem = "-----BEGIN CERTIFICATE-----\n"
                    + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(ca.getEncoded())
                    + "\n-----END CERTIFICATE-----\n";
            return of(Map.of(
                    OpensslHashes.subjectHash(ca.getSubjectX500Principal()) + ".0",
                    pem.getBytes(StandardCharsets.US_ASCII)));
        } catch (CertificateEncodingException e) {
            throw new IllegalArgumentException("cannot encode certificate: " + e.getMessage(), e);
        }
    }

    /**
     * Reads the trust files of a directory (other files are ignored).
     *
     * @param directory an OpenSSL hashed directory
     * @return its trust files
     * @throws IOException if it cannot be read
     */
    public static TrustRoots read(Path directory) throws IOException {
        SortedMap<String, byte[]> files = new TreeMap<>();
        try (var list = Files.list(directory)) {
            for (Path p : (Iterable<Path>) list::iterator) {
                String name = p.getFileName().toString();
                if (isTrustFileName(name) && Files.isRegularFile(p)) {
                    files.put(name, Files.readAllBytes(p));
                }
            }
        }
        return new TrustRoots(files);
    }

    /** @return file name to content, sorted by name; the arrays are copies */
    public Map<String, byte[]> files() {
        SortedMap<String, byte[]> copy = new TreeMap<>();
        files.forEach((name, content) -> copy.put(name, content.clone()));
        return Collections.unmodifiableSortedMap(copy);
    }

    /** @return true when there is no file */
    public boolean isEmpty() {
        return files.isEmpty();
    }

    /**
     * @param other more roots; where both have a file of the same name, this one's wins
     * @return the union
     */
    public TrustRoots plus(TrustRoots other) {
        SortedMap<String, byte[]> union = new TreeMap<>(other.files);
        union.putAll(files);
        return new TrustRoots(union);
    }

    /**
     * @return the CA certificates of the {@code <hash>.<n>} files
     * @throws CertificateException if one does not parse
     */
    public List<X509Certificate> caCertificates() throws CertificateException {
        CertificateFactory factory = CertificateFactory.getInstance("X.509");
        List<X509Certificate> certificates = new ArrayList<>();
        for (Map.Entry<String, byte[]> file : files.entrySet()) {
            if (CERTIFICATE.matcher(file.getKey()).matches()) {
                for (var c : factory.generateCertificates(new ByteArrayInputStream(file.getValue()))) {
                    certificates.add((X509Certificate) c);
                }
            }
        }
        return certificates;
    }

    /**
     * Writes the files into a directory (created if missing), replacing files of the same name.
     *
     * @param directory the target
     * @throws IOException if writing fails
     */
    public void writeTo(Path directory) throws IOException {
        Files.createDirectories(directory);
        for (Map.Entry<String, byte[]> file : files.entrySet()) {
            Files.write(directory.resolve(file.getKey()), file.getValue());
        }
    }

    /** @return SHA-256 over the names and contents, hex: equal roots have equal digests */
    public String digest() {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            for (Map.Entry<String, byte[]> file : files.entrySet()) {
                sha.update(file.getKey().getBytes(StandardCharsets.US_ASCII));
                sha.update((byte) 0);
                sha.update(Integer.toString(file.getValue().length).getBytes(StandardCharsets.US_ASCII));
                sha.update((byte) 0);
                sha.update(file.getValue());
            }
            return HexFormat.of().formatHex(sha.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is not available", e);
        }
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof TrustRoots other) || !files.keySet().equals(other.files.keySet())) {
            return false;
        }
        return files.entrySet().stream().allMatch(e -> Arrays.equals(e.getValue(), other.files.get(e.getKey())));
    }

    @Override
    public int hashCode() {
        return digest().hashCode();
    }

    @Override
    public String toString() {
        return "TrustRoots" + files.keySet();
    }
}
