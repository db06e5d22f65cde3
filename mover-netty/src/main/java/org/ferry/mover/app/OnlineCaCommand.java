package org.ferry.mover.app;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.concurrent.Callable;
import org.ferry.gsi.ca.OnlineCa;
import org.ferry.gsi.credential.GsiCredential;
import org.ferry.gsi.credential.PemFiles;
import org.ferry.gsi.name.DistinguishedNames;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code ferry-gridftp online-ca}: a site's online CA (gsi-security's {@link OnlineCa}) for a
 * multi-user endpoint, as Globus Connect Multi-User packaged one (seed 000). Creates the CA in
 * {@code --dir} when it is missing ({@code cacert.pem}, {@code private/cakey.pem}, and the trust
 * directory {@code certificates/} with the CA's certificate, signing policy and CRL), and with
 * {@code --host NAME} issues the host credential {@code host/NAME} for the GridFTP and MyProxy
 * servers ({@code --host-cert}, {@code --host-key}; the key mode 0600). A myproxy-server
 * configured with {@code certificate_issuer_cert}/{@code certificate_issuer_key} then signs users'
 * short-lived certificates with this CA after a PAM login (docs/deployment.md, "A multi-user
 * endpoint"). Prints the CA's subject, its trust directory and the subject a user {@code NAME}
 * gets. Exit codes: 0 done, 1 failure (one line saying why).
 */
@Command(
        name = "online-ca",
        mixinStandardHelpOptions = true,
        description = "Create a site's online CA (once) and issue host credentials from it.")
final class OnlineCaCommand implements Callable<Integer> {

    @Spec
    private CommandLine.Model.CommandSpec spec;

    @Option(names = "--dir", required = true, description = "The CA's directory (created if missing).")
    private Path dir;

    @Option(
            names = "--subject",
            defaultValue = "/O=Ferry/OU=Site/CN=Ferry Site CA",
            description = "The CA's subject when it is created (default: ${DEFAULT-VALUE}); users get its"
                    + " base with CN=USER.")
    private String subject;

    @Option(names = "--host", description = "Issue the host credential host/NAME.")
    private String host;

    @Option(names = "--host-cert", description = "Where the host certificate goes (with --host).")
    private Path hostCert;

    @Option(names = "--host-key", description = "Where the host key goes, mode 0600 (with --host).")
    private Path hostKey;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (host != null && (hostCert == null || hostKey == null)) {
            err.println("ferry-gridftp online-ca: --host needs --host-cert and --host-key");
            return 2;
        }
        try {
            OnlineCa ca =
                    Files.exists(dir.resolve("cacert.pem")) ? OnlineCa.open(dir) : OnlineCa.create(subject, dir, 2048);
            out.println("CA: " + DistinguishedNames.oneline(ca.caCertificate().getSubjectX500Principal()));
            out.println("Trust directory: " + ca.trustDirectory());
            out.println("Certificate: " + dir.resolve("cacert.pem") + ", key: " + dir.resolve("private/cakey.pem"));
            out.println("A user NAME gets: " + DistinguishedNames.oneline(ca.subjectFor("NAME")));
            if (host != null) {
                String service = "host/" + host;
                GsiCredential credential =
                        ca.issueHostCredential(service, ca.newSetupKey(service, Duration.ofMinutes(5)));
                PemFiles.writeCertificates(credential.chain().subList(0, 1), hostCert);
                Files.deleteIfExists(hostKey);
                Files.createFile(
                        hostKey, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
                PemFiles.writePrivateKey(credential.privateKey(), hostKey);
                out.println("Host credential: "
                        + DistinguishedNames.oneline(credential.certificate().getSubjectX500Principal()) + " in "
                        + hostCert + " and " + hostKey);
            }
            out.flush();
            return 0;
        } catch (IOException | GeneralSecurityException | RuntimeException e) {
            err.println("ferry-gridftp online-ca: " + e.getMessage());
            return 1;
        }
    }
}
