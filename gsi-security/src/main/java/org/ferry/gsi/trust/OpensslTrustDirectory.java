package org.ferry.gsi.trust;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import org.ferry.gsi.credential.PemFiles;

/**
 * A {@link TrustStore} read from an OpenSSL hashed directory such as
 * {@code /etc/grid-security/certificates}: CA certificates in {@code <hash>.<n>} files (reference
 * 5.3). Signing policies ({@code <hash>.signing_policy}) and CRLs ({@code <hash>.r<n>}) in the same
 * directory are applied by {@link CanlChainValidator}.
 */
public final class OpensslTrustDirectory implements TrustStore {
    private final Path directory;
    private final List<X509Certificate> anchors;

    private OpensslTrustDirectory(Path directory, List<X509Certificate> anchors) {
        this.directory = directory;
        this.anchors = List.copyOf(anchors);
    }

    /**
     * Reads the CA certificates of a directory.
     *
     * @param directory the trust directory
     * @return the store
     * @throws IOException if the directory cannot be read, a CA file is unreadable, or it holds no CA
     */
    public static OpensslTrustDirectory load(Path directory) throws IOException {
        if (!Files.isDirectory(directory)) {
            throw new IOException("trust directory " + directory + " does not exist (set X509_CERT_DIR)");
        }
        List<X509Certificate> anchors = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, "*.[0-9]")) {
            for (Path f : files) {
                if (f.getFileName().toString().matches("[0-9a-f]{8}\\.[0-9]")) {
                    anchors.addAll(PemFiles.readCertificates(f));
                }
            }
        }
        if (anchors.isEmpty()) {
            throw new IOException("trust directory " + directory + " holds no CA certificate (<hash>.0 files)");
        }
        return new OpensslTrustDirectory(directory, anchors);
    }

    @Override
    public Path directory() {
        return directory;
    }

    @Override
    public List<X509Certificate> caCertificates() {
        return anchors;
    }
}
