package org.ferry.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.ferry.gsi.context.GsiEngines;
import org.junit.jupiter.api.Test;

/**
 * ferry-server's JVM accepts DCAU data connections (its personal endpoint), so its main disables
 * the TLS server's SNI extension before anything else, as ferry-gridftp's does. Checked in a JVM
 * of its own: the test JVM's properties say nothing about what main sets.
 */
class ServerNameIndicationTest {

    @Test
    void mainIgnoresServerNameIndicationBeforeStarting() throws Exception {
        Path out = Files.createTempFile("ferry-sni", ".txt");
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                Probe.class.getName(),
                out.toString()));
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(Files.createTempFile("ferry-sni", ".log").toFile())
                .start();
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).isZero();
        assertThat(Files.readString(out)).isEqualTo("server_name");
    }

    /** Runs main with arguments that make Spring stop at once, then reports the property. */
    public static final class Probe {
        public static void main(String[] args) throws Exception {
            try {
                // a source that does not exist stops Spring before it starts anything; what matters
                // is what main did before calling it
                FerryServerApplication.main(new String[] {
                    "--spring.main.sources=org.ferry.NoSuchClass",
                    "--spring.main.web-application-type=none",
                    "--ferry.home=" + Files.createTempDirectory("h")
                });
            } catch (RuntimeException expected) {
                // the property is set before Spring starts
            }
            Files.writeString(
                    Path.of(args[0]),
                    String.valueOf(System.getProperty(GsiEngines.DISABLE_SERVER_EXTENSIONS_PROPERTY)));
            System.exit(0);
        }
    }
}
