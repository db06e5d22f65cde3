package org.ferry.mover.app;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import org.ferry.gsi.credential.CredentialLoader;
import org.ferry.gsi.credential.GsiCredential;
import org.ferry.gsi.credential.PemFiles;
import org.ferry.gsi.gridmap.GridMap;
import org.ferry.gsi.gridmap.GridMapAuthorizer;
import org.ferry.gsi.trust.CanlChainValidator;
import org.ferry.gsi.trust.OpensslTrustDirectory;
import org.ferry.mover.server.pi.GsiServerSecurity;

/**
 * Where {@code ferry-gridftp} finds its GSI material and how it loads it: the host credential, the
 * trusted CAs and the grid-mapfile, each from its option if given, else from the environment
 * variable globus-gridftp-server reads, else from {@code /etc/grid-security} (the Globus grid-mapfile format; the OpenSSL hashed CA directory with Globus signing_policy files): {@code --host-cert}/{@code X509_USER_CERT}/{@code hostcert.pem},
 * {@code --host-key}/{@code X509_USER_KEY}/{@code hostkey.pem} (unencrypted),
 * {@code --ca-dir}/{@code X509_CERT_DIR}/{@code certificates}, {@code --gridmap}/{@code GRIDMAP}/{@code grid-mapfile}.
 * Every failure is one line naming the file and where its name came from.
 *
 * @param hostCertificate the host certificate's location
 * @param hostKey the host key's location
 * @param caDirectory the trust directory's location
 * @param gridMap the grid-mapfile's location
 */
record GsiMaterial(Location hostCertificate, Location hostKey, Location caDirectory, Location gridMap) {

    /**
     * One file or directory and where its name came from.
     *
     * @param what what it is, e.g. {@code host certificate}
     * @param path the path
     * @param source the option, the environment variable, or {@code default}
     */
    record Location(String what, Path path, String source) {
        @Override
        public String toString() {
            return what + " " + path + " (" + source + ")";
        }
    }

    /**
     * Resolves the four locations; an option (non-null argument) overrides its environment variable.
     *
     * @param env the process environment, read as Globus does ({@link CredentialLoader})
     * @param hostCertificate {@code --host-cert}, or null
     * @param hostKey {@code --host-key}, or null
     * @param caDirectory {@code --ca-dir}, or null
     * @param gridMap {@code --gridmap}, or null
     * @return the locations, not yet read
     */
    static GsiMaterial locate(
            CredentialLoader env, Path hostCertificate, Path hostKey, Path caDirectory, Path gridMap) {
        return new GsiMaterial(
                locate(
                        "host certificate",
                        hostCertificate,
                        "--host-cert",
                        env,
                        "X509_USER_CERT",
                        env.hostCertificatePath()),
                locate("host key", hostKey, "--host-key", env, "X509_USER_KEY", env.hostKeyPath()),
                locate("trusted CA directory", caDirectory, "--ca-dir", env, "X509_CERT_DIR", env.trustDirectory()),
                locate("grid-mapfile", gridMap, "--gridmap", env, "GRIDMAP", env.gridMapPath()));
    }

    private static Location locate(
            String what, Path option, String optionName, CredentialLoader env, String variable, Path fromEnvironment) {
        if (option != null) {
            return new Location(what, option, optionName);
        }
        return new Location(
                what,
                fromEnvironment,
                env.isSet(variable) ? variable : "default; set " + variable + " or give " + optionName);
    }

    /**
     * Checks that each file exists and is readable, then reads them.
     *
     * @return what the server needs for AUTH GSSAPI
     * @throws IOException one line: the first missing, unreadable or malformed file, and why
     */
    GsiServerSecurity load() throws IOException {
        requireReadable(hostCertificate, false);
        requireReadable(hostKey, false);
        requireReadable(caDirectory, true);
        requireReadable(gridMap, false);
        GsiCredential host;
        try {
            host = PemFiles.readCredential(hostCertificate.path(), hostKey.path(), null);
        } catch (IOException | GeneralSecurityException e) {
            throw new IOException(
                    "host credential " + hostCertificate.path() + " + " + hostKey.path() + ": " + firstLine(e), e);
        }
        OpensslTrustDirectory trust;
        GridMap map;
        try {
            trust = OpensslTrustDirectory.load(caDirectory.path());
        } catch (IOException e) {
            throw new IOException(caDirectory + ": " + firstLine(e), e);
        }
        try {
            map = GridMap.load(gridMap.path());
        } catch (IOException e) {
            throw new IOException(gridMap + ": " + firstLine(e), e);
        }
        return new GsiServerSecurity(
                host, new CanlChainValidator(caDirectory.path()), trust, new GridMapAuthorizer(map));
    }

    private static void requireReadable(Location location, boolean directory) throws IOException {
        Path path = location.path();
        if (!Files.exists(path)) {
            throw new IOException(location + ": no such " + (directory ? "directory" : "file"));
        }
        if (directory != Files.isDirectory(path)) {
            throw new IOException(location + ": " + (directory ? "not a directory" : "is a directory"));
        }
        if (!Files.isReadable(path)) {
            throw new IOException(location + ": not readable by this user");
        }
    }

    private static String firstLine(Exception e) {
        String message = e.getMessage() != null ? e.getMessage() : e.toString();
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }
}
