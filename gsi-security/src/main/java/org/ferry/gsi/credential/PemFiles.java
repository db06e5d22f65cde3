package org.ferry.gsi.credential;

import java.io.IOException;
import java.io.Reader;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.security.interfaces.RSAKey;
import java.security.interfaces.RSAPublicKey;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.openssl.PEMEncryptedKeyPair;
import org.bouncycastle.openssl.PEMException;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JceOpenSSLPKCS8DecryptorProviderBuilder;
import org.bouncycastle.openssl.jcajce.JcePEMDecryptorProviderBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.pkcs.PKCS8EncryptedPrivateKeyInfo;
import org.bouncycastle.pkcs.PKCSException;

/**
 * Reads and writes the PEM files of GSI: proxy files as {@code grid-proxy-init} writes them
 * (proxy certificate, its unencrypted private key, then the issuer chain;
 * {@code globus_gsi_cred_write}), certificate files, and key files in PKCS#1
 * ({@code RSA PRIVATE KEY}), PKCS#8 ({@code PRIVATE KEY}) or encrypted forms.
 *
 * <p>Files holding a private key are created with mode 0600, as Globus requires for proxies.
 */
public final class PemFiles {

    private PemFiles() {}

    /**
     * Reads a proxy file (or any PEM file holding one key and its chain, leaf first).
     *
     * @param file the PEM file
     * @return the credential
     * @throws IOException              if the file cannot be read or holds no key or no certificate
     * @throws GeneralSecurityException if the key does not belong to the first certificate
     */
    public static GsiCredential readCredential(Path file) throws IOException, GeneralSecurityException {
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.US_ASCII)) {
            return readCredential(reader, file.toString());
        }
    }

    /**
     * Parses a credential from PEM text in a proxy file's layout (the key and its chain, leaf
     * first), e.g. what {@link #credentialPem} made or a CLI sent.
     *
     * @param pem the PEM text
     * @return the credential
     * @throws IOException if the text holds no key or no certificate, or does not parse
     * @throws GeneralSecurityException if the key does not belong to the first certificate
     */
    public static GsiCredential parseCredential(String pem) throws IOException, GeneralSecurityException {
        return readCredential(new java.io.StringReader(pem), "credential");
    }

    /**
     * @param credential a credential
     * @return its PEM text in grid-proxy-init's layout (see {@link #writeCredential}); holds the
     *     private key unencrypted: seal or clear it
     * @throws IOException if an object has no PEM form
     */
    public static String credentialPem(GsiCredential credential) throws IOException {
        StringWriter out = new StringWriter();
        try (JcaPEMWriter pem = new JcaPEMWriter(out)) {
            pem.writeObject(credential.certificate());
            pem.writeObject(credential.privateKey());
            for (X509Certificate c :
                    credential.chain().subList(1, credential.chain().size())) {
                pem.writeObject(c);
            }
        }
        return out.toString();
    }

    private static GsiCredential readCredential(Reader source, String name)
            throws IOException, GeneralSecurityException {
        Path file = Path.of(name);
        List<X509Certificate> certs = new ArrayList<>();
        PrivateKey key = null;
        try (PEMParser parser = new PEMParser(source)) {
            Object o;
            while ((o = parser.readObject()) != null) {
                if (o instanceof X509CertificateHolder holder) {
                    certs.add(toCertificate(holder));
                } else if (key == null && isKey(o)) {
                    key = toPrivateKey(o, null, file);
                }
            }
        }
        if (certs.isEmpty()) {
            throw new IOException(file + ": no certificate found");
        }
        if (key == null) {
            throw new IOException(file + ": no private key found");
        }
        checkKeyMatches(key, certs.get(0), file);
        return new GsiCredential(key, certs);
    }

    /**
     * Reads a credential from separate certificate and key files ({@code usercert.pem}/{@code userkey.pem},
     * {@code hostcert.pem}/{@code hostkey.pem}).
     *
     * @param certFile   PEM certificates, leaf first
     * @param keyFile    PEM private key, possibly encrypted
     * @param passphrase passphrase of an encrypted key, or null; cleared by this method
     * @return the credential
     * @throws IOException              if a file cannot be read or parsed, or the passphrase is wrong
     * @throws GeneralSecurityException if the key does not belong to the certificate
     */
    public static GsiCredential readCredential(Path certFile, Path keyFile, char[] passphrase)
            throws IOException, GeneralSecurityException {
        try {
            List<X509Certificate> certs = readCertificates(certFile);
            if (certs.isEmpty()) {
                throw new IOException(certFile + ": no certificate found");
            }
            PrivateKey key = null;
            try (Reader reader = Files.newBufferedReader(keyFile, StandardCharsets.US_ASCII);
                    PEMParser parser = new PEMParser(reader)) {
                Object o;
                while (key == null && (o = parser.readObject()) != null) {
                    if (isKey(o)) {
                        key = toPrivateKey(o, passphrase, keyFile);
                    }
                }
            }
            if (key == null) {
                throw new IOException(keyFile + ": no private key found");
            }
            checkKeyMatches(key, certs.get(0), certFile);
            return new GsiCredential(key, certs);
        } finally {
            if (passphrase != null) {
                Arrays.fill(passphrase, '\0');
            }
        }
    }

    /**
     * Reads all certificates of a PEM file, in file order, ignoring other objects.
     *
     * @param file the PEM file
     * @return the certificates, possibly empty
     * @throws IOException if the file cannot be read or parsed
     */
    public static List<X509Certificate> readCertificates(Path file) throws IOException {
        List<X509Certificate> certs = new ArrayList<>();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.US_ASCII);
                PEMParser parser = new PEMParser(reader)) {
            Object o;
            while ((o = parser.readObject()) != null) {
                if (o instanceof X509CertificateHolder holder) {
                    certs.add(toCertificate(holder));
                }
            }
        }
        return certs;
    }

    /**
     * Writes a credential in grid-proxy-init's layout: leaf certificate, private key (PKCS#1 for
     * RSA, unencrypted), then the rest of the chain. The file is replaced and gets mode 0600.
     *
     * @param credential the credential
     * @param file       destination
     * @throws IOException if writing fails
     */
    public static void writeCredential(GsiCredential credential, Path file) throws IOException {
        writePrivate(file, credentialPem(credential));
    }

    /**
     * Writes an unencrypted private key (PKCS#1 for RSA), mode 0600, e.g. a {@code hostkey.pem}.
     *
     * @param key  the key
     * @param file destination, replaced
     * @throws IOException if writing fails
     */
    public static void writePrivateKey(PrivateKey key, Path file) throws IOException {
        StringWriter out = new StringWriter();
        try (JcaPEMWriter pem = new JcaPEMWriter(out)) {
            pem.writeObject(key);
        }
        writePrivate(file, out.toString());
    }

    /**
     * Writes certificates as PEM, world-readable (certificates are public).
     *
     * @param certs the certificates, in the order to write
     * @param file  destination, replaced
     * @throws IOException if writing fails
     */
    public static void writeCertificates(List<X509Certificate> certs, Path file) throws IOException {
        Files.writeString(file, toPem(certs), StandardCharsets.US_ASCII);
    }

    /**
     * @param objects certificates, CRLs, keys or requests
     * @return their PEM text
     * @throws IOException if an object has no PEM form
     */
    public static String toPem(List<?> objects) throws IOException {
        StringWriter out = new StringWriter();
        try (Writer w = out;
                JcaPEMWriter pem = new JcaPEMWriter(w)) {
            for (Object o : objects) {
                pem.writeObject(o);
            }
        }
        return out.toString();
    }

    private static void writePrivate(Path file, String text) throws IOException {
        Files.deleteIfExists(file);
        if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
            // Create with 0600 first so the key is never readable by others, even briefly.
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        }
        Files.writeString(
                file,
                text,
                StandardCharsets.US_ASCII,
                StandardOpenOption.CREATE,
                StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE);
    }

    private static boolean isKey(Object o) {
        return o instanceof PEMKeyPair
                || o instanceof PrivateKeyInfo
                || o instanceof PEMEncryptedKeyPair
                || o instanceof PKCS8EncryptedPrivateKeyInfo;
    }

    private static PrivateKey toPrivateKey(Object o, char[] passphrase, Path file) throws IOException {
        JcaPEMKeyConverter converter = new JcaPEMKeyConverter().setProvider(new BouncyCastleProvider());
        try {
            if (o instanceof PEMKeyPair pair) {
                return converter.getPrivateKey(pair.getPrivateKeyInfo());
            } else if (o instanceof PrivateKeyInfo info) {
                return converter.getPrivateKey(info);
            } else if (o instanceof PEMEncryptedKeyPair enc) {
                requirePassphrase(passphrase, file);
                return converter.getPrivateKey(
                        enc.decryptKeyPair(new JcePEMDecryptorProviderBuilder().build(passphrase))
                                .getPrivateKeyInfo());
            } else {
                requirePassphrase(passphrase, file);
                PKCS8EncryptedPrivateKeyInfo enc = (PKCS8EncryptedPrivateKeyInfo) o;
                return converter.getPrivateKey(enc.decryptPrivateKeyInfo(new JceOpenSSLPKCS8DecryptorProviderBuilder()
                        .setProvider(new BouncyCastleProvider())
                        .build(passphrase)));
            }
        } catch (PEMException | PKCSException | OperatorCreationException e) {
            // The passphrase itself is never part of the message.
            throw new IOException(file + ": cannot decrypt private key (wrong passphrase?)", e);
        }
    }

    private static void requirePassphrase(char[] passphrase, Path file) throws IOException {
        if (passphrase == null) {
            throw new IOException(file + ": private key is encrypted and no passphrase was given");
        }
    }

    private static X509Certificate toCertificate(X509CertificateHolder holder) throws IOException {
        try {
            return new JcaX509CertificateConverter().getCertificate(holder);
        } catch (CertificateException e) {
            throw new IOException("bad certificate: " + e.getMessage(), e);
        }
    }

    private static void checkKeyMatches(PrivateKey key, X509Certificate cert, Path file)
            throws GeneralSecurityException {
        if (key instanceof RSAKey rsa
                && cert.getPublicKey() instanceof RSAPublicKey pub
                && !rsa.getModulus().equals(pub.getModulus())) {
            throw new GeneralSecurityException(
                    file + ": private key does not match certificate " + cert.getSubjectX500Principal());
        }
    }
}
