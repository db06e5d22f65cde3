package org.ferry.mover.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.ferry.gsi.credential.CredentialLoader;
import org.ferry.mover.server.pi.GsiServerSecurity;
import org.ferry.mover.testing.GsiTestPki;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class FerryGridFtpMainTest {

    @TempDir
    Path tmp;

    private static int run(StringWriter err, String... args) {
        return run(Map.of(), err, args);
    }

    private static int run(Map<String, String> environment, StringWriter err, String... args) {
        CommandLine cli = new CommandLine(new FerryGridFtpMain(environment));
        cli.setErr(new PrintWriter(err, true));
        cli.setOut(new PrintWriter(new StringWriter(), true));
        return cli.execute(args);
    }

    /** Host credential, CA directory and grid-mapfile of a test PKI, as the four options name them. */
    private record GsiFiles(Path cert, Path key, Path caDir, Path gridMap) {}

    private GsiFiles gsiFiles(GsiTestPki pki) throws Exception {
        Path cert = tmp.resolve("hostcert.pem");
        Path key = tmp.resolve("hostkey.pem");
        GsiTestPki.writePemFiles(pki.host(), cert, key);
        Path gridMap = Files.writeString(tmp.resolve("grid-mapfile"), pki.gridMapLine("Some User", "some"));
        return new GsiFiles(cert, key, pki.trustDirectory(), gridMap);
    }

    /**
     * main serves a lone {@code --ssh} without picocli: its command must hold what picocli's parse of
     * {@code --ssh} holds, option by option (a default changed in one place only fails here).
     */
    @Test
    void theSshFastPathHasPicoclisDefaults() throws Exception {
        FerryGridFtpMain parsed = new FerryGridFtpMain(Map.of());
        new CommandLine(parsed).parseArgs("--ssh");
        FerryGridFtpMain fast = FerryGridFtpMain.sshWithDefaults(Map.of());
        int options = 0;
        for (Field field : FerryGridFtpMain.class.getDeclaredFields()) {
            if (field.isAnnotationPresent(CommandLine.Option.class)) {
                field.setAccessible(true);
                assertThat(field.get(fast)).as(field.getName()).isEqualTo(field.get(parsed));
                options++;
            }
        }
        assertThat(options).isGreaterThan(20);
    }

    @Test
    void usageErrorsExitWith2() {
        StringWriter err = new StringWriter();
        assertThat(run(err, "--anonymous")).isEqualTo(2);
        assertThat(err.toString()).contains("--root is required");
        assertThat(run(err, "--root", tmp.toString())).isEqualTo(2);
        assertThat(err.toString()).contains("--anonymous");
        assertThat(run(err, "--root", tmp.resolve("missing").toString(), "--anonymous"))
                .isEqualTo(2);
        assertThat(run(err, "--bogus")).isEqualTo(2);
        StringWriter busyPoll = new StringWriter();
        assertThat(run(busyPoll, "--root", tmp.toString(), "--anonymous", "--busy-poll", "-1"))
                .isEqualTo(2);
        assertThat(busyPoll.toString()).contains("--busy-poll must be 0 to 1000000 microseconds");
        StringWriter noValue = new StringWriter();
        assertThat(run(noValue, "--root", tmp.toString(), "--host-cert")).isEqualTo(2);
        assertThat(noValue.toString()).contains("Missing required parameter for option '--host-cert'");
    }

    @Test
    void aMissingOrMalformedPasswordFileIsOneLineAndExit2() throws Exception {
        StringWriter err = new StringWriter();
        Path missing = tmp.resolve("no-such-passwd");
        assertThat(run(err, "--root", tmp.toString(), "--password-file", missing.toString()))
                .isEqualTo(2);
        assertThat(err.toString())
                .isEqualTo("ferry-gridftp: --password-file " + missing + ": no such file" + System.lineSeparator());
        StringWriter malformed = new StringWriter();
        Path plain = Files.writeString(tmp.resolve("passwd"), "# users\nalice:secret\n");
        assertThat(run(malformed, "--root", tmp.toString(), "--password-file", plain.toString()))
                .isEqualTo(2);
        assertThat(malformed.toString())
                .isEqualTo("ferry-gridftp: --password-file " + plain + ": password file line 2: not a bcrypt hash"
                        + System.lineSeparator());
    }

    @Test
    void aGsiFileOptionImpliesGsiAndAMissingFileIsOneLineAndExit1() {
        StringWriter err = new StringWriter();
        Path missing = tmp.resolve("nope/hostcert.pem");
        // no --gsi, no clear-text login: naming the certificate is enough to ask for GSI
        assertThat(run(err, "--root", tmp.toString(), "--host-cert", missing.toString()))
                .isEqualTo(1);
        assertThat(err.toString())
                .isEqualTo("ferry-gridftp: cannot set up GSI: host certificate " + missing
                        + " (--host-cert): no such file" + System.lineSeparator());
    }

    @Test
    void eachOptionOverridesItsVariableAndEachVariableTheDefault() throws Exception {
        try (GsiTestPki pki = GsiTestPki.create(tmp.resolve("pki"), "MainOpts")) {
            GsiFiles files = gsiFiles(pki);
            Map<String, String> env = Map.of(
                    "X509_USER_CERT",
                    tmp.resolve("env-cert.pem").toString(),
                    "X509_USER_KEY",
                    tmp.resolve("env-key.pem").toString(),
                    "X509_CERT_DIR",
                    tmp.resolve("env-cas").toString(),
                    "GRIDMAP",
                    tmp.resolve("env-map").toString());
            StringWriter err = new StringWriter();
            assertThat(run(env, err, "--root", tmp.toString(), "--gsi")).isEqualTo(1);
            assertThat(err.toString())
                    .contains("host certificate " + tmp.resolve("env-cert.pem") + " (X509_USER_CERT): no such file");
            // Each option given in turn moves the first failure on to the next file, still named by its variable.
            err = new StringWriter();
            assertThat(run(
                            env,
                            err,
                            "--root",
                            tmp.toString(),
                            "--host-cert",
                            files.cert().toString()))
                    .isEqualTo(1);
            assertThat(err.toString())
                    .contains("host key " + tmp.resolve("env-key.pem") + " (X509_USER_KEY): no such file");
            err = new StringWriter();
            assertThat(run(
                            env,
                            err,
                            "--root",
                            tmp.toString(),
                            "--host-cert",
                            files.cert().toString(),
                            "--host-key",
                            files.key().toString()))
                    .isEqualTo(1);
            assertThat(err.toString())
                    .contains("trusted CA directory " + tmp.resolve("env-cas") + " (X509_CERT_DIR): no such directory");
            err = new StringWriter();
            assertThat(run(
                            env,
                            err,
                            "--root",
                            tmp.toString(),
                            "--host-cert",
                            files.cert().toString(),
                            "--host-key",
                            files.key().toString(),
                            "--ca-dir",
                            files.caDir().toString()))
                    .isEqualTo(1);
            assertThat(err.toString()).contains("grid-mapfile " + tmp.resolve("env-map") + " (GRIDMAP): no such file");

            GsiServerSecurity loaded = GsiMaterial.locate(
                            new CredentialLoader(env, 0), files.cert(), files.key(), files.caDir(), files.gridMap())
                    .load();
            assertThat(loaded.hostCredential().identity()).isEqualTo(pki.dn("host/localhost"));
            assertThat(loaded.authorizer().authorize(pki.dn("Some User"), null)).isEqualTo("some");
        }
    }

    @Test
    void withoutOptionsOrVariablesTheEtcGridSecurityDefaultIsNamed() {
        Assumptions.assumeFalse(
                Files.exists(Path.of("/etc/grid-security/hostcert.pem")), "this machine has a host certificate");
        StringWriter err = new StringWriter();
        assertThat(run(err, "--root", tmp.toString(), "--gsi")).isEqualTo(1);
        assertThat(err.toString())
                .contains("host certificate /etc/grid-security/hostcert.pem"
                        + " (default; set X509_USER_CERT or give --host-cert): no such file");
    }

    @Test
    void malformedGsiFilesAreNamedWithTheReason() throws Exception {
        try (GsiTestPki pki = GsiTestPki.create(tmp.resolve("pki"), "MainBad")) {
            GsiFiles files = gsiFiles(pki);
            Path emptyDir = Files.createDirectory(tmp.resolve("empty-cas"));
            Path badMap = Files.writeString(tmp.resolve("bad-map"), "\"/O=Grid/CN=unterminated user\n");
            String[] base = {
                "--root",
                tmp.toString(),
                "--host-cert",
                files.cert().toString(),
                "--host-key",
                files.key().toString()
            };

            StringWriter err = new StringWriter();
            assertThat(run(
                            err,
                            concat(
                                    base,
                                    "--ca-dir",
                                    files.cert().toString(),
                                    "--gridmap",
                                    files.gridMap().toString())))
                    .isEqualTo(1);
            assertThat(err.toString())
                    .contains("trusted CA directory " + files.cert() + " (--ca-dir): not a directory");
            err = new StringWriter();
            assertThat(run(
                            err,
                            concat(
                                    base,
                                    "--ca-dir",
                                    emptyDir.toString(),
                                    "--gridmap",
                                    files.gridMap().toString())))
                    .isEqualTo(1);
            assertThat(err.toString()).contains("holds no CA certificate");
            err = new StringWriter();
            assertThat(run(err, concat(base, "--ca-dir", files.caDir().toString(), "--gridmap", badMap.toString())))
                    .isEqualTo(1);
            assertThat(err.toString())
                    .startsWith("ferry-gridftp: cannot set up GSI: grid-mapfile " + badMap + " (--gridmap): ")
                    .endsWith(badMap + ":1: unterminated quoted DN" + System.lineSeparator());
            err = new StringWriter();
            assertThat(run(
                            err,
                            "--root",
                            tmp.toString(),
                            "--host-cert",
                            files.cert().toString(),
                            "--host-key",
                            files.cert().toString(),
                            "--ca-dir",
                            files.caDir().toString(),
                            "--gridmap",
                            files.gridMap().toString()))
                    .isEqualTo(1);
            assertThat(err.toString())
                    .contains("host credential " + files.cert() + " + " + files.cert() + ": ")
                    .contains("no private key found");
            assertThat(err.toString().lines()).as("one line each time").hasSize(1);
        }
    }

    private static String[] concat(String[] base, String... more) {
        String[] all = new String[base.length + more.length];
        System.arraycopy(base, 0, all, 0, base.length);
        System.arraycopy(more, 0, all, base.length, more.length);
        return all;
    }
}
