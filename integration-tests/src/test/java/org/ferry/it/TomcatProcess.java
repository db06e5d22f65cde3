package org.ferry.it;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A real Apache Tomcat 11 (the distribution from Maven Central that the build unpacks into
 * {@code integration-tests/target/tomcat}) in a {@code CATALINA_BASE} of its own: one HTTPS
 * connector on 127.0.0.1 with a PEM key and certificate (the connector README "Production
 * deployment" documents), no shutdown port, and one WAR. {@code catalina.sh run} execs the JVM, so
 * closing the process stops Tomcat.
 */
final class TomcatProcess implements AutoCloseable {

    private static final Pattern DEPLOYED =
            Pattern.compile("Deployment of web application archive \\[.*ferry\\.war\\] has finished");

    private final ManagedProcess process;
    private final int port;

    private TomcatProcess(ManagedProcess process, int port) {
        this.process = process;
        this.port = port;
    }

    /** @return the unpacked distribution (CATALINA_HOME) the build made */
    static Path home() {
        String home = System.getProperty("ferry.tomcat.home");
        if (home == null || !Files.isExecutable(Path.of(home, "bin", "catalina.sh"))) {
            throw new IllegalStateException(
                    "no Tomcat distribution at " + home + ": ./mvnw verify unpacks it (process-test-resources)");
        }
        return Path.of(home);
    }

    /**
     * Makes the base, deploys {@code war} as {@code /ferry} and waits until Tomcat says it is deployed.
     *
     * @param base an empty directory for CATALINA_BASE
     * @param war the WAR to deploy
     * @param tls the connector's key and certificate
     * @param environment more variables (FERRY_HOME)
     */
    static TomcatProcess start(Path base, Path war, SelfSignedTls tls, Map<String, String> environment)
            throws IOException, InterruptedException {
        Path home = home();
        for (String dir : List.of("conf", "logs", "temp", "webapps", "work")) {
            Files.createDirectories(base.resolve(dir));
        }
        try (Stream<Path> files = Files.list(home.resolve("conf"))) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                Files.copy(file, base.resolve("conf").resolve(file.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            }
        }
        Files.writeString(base.resolve("conf/server.xml"), serverXml(tls));
        Files.copy(war, base.resolve("webapps/ferry.war"));
        int port = freePort();
        Map<String, String> variables = new HashMap<>(environment);
        variables.put("CATALINA_HOME", home.toString());
        variables.put("CATALINA_BASE", base.toString());
        variables.put("CATALINA_PID", base.resolve("catalina.pid").toString());
        variables.put("JAVA_HOME", System.getProperty("java.home"));
        // what README's bin/setenv.sh says: the port, and SNI off for DCAU data connections
        variables.put(
                "CATALINA_OPTS", "-Dhttps.port=" + port + " -Xmx512m -Djdk.tls.server.disableExtensions=server_name");
        ManagedProcess process = ManagedProcess.start(
                "tomcat",
                List.of(home.resolve("bin/catalina.sh").toString(), "run"),
                variables,
                base.resolve("logs/console.log"));
        try {
            process.awaitOutput(DEPLOYED, Duration.ofSeconds(300));
            return new TomcatProcess(process, port);
        } catch (RuntimeException | IOException | InterruptedException e) {
            process.close();
            throw e;
        }
    }

    /** The server.xml README documents, with the port from {@code -Dhttps.port}. */
    static String serverXml(SelfSignedTls tls) {
        return """
                <?xml version="1.0" encoding="UTF-8"?>
                <Server port="-1" shutdown="SHUTDOWN">
                  <Listener className="org.apache.catalina.startup.VersionLoggerListener" />
                  <Service name="Catalina">
                    <Connector port="${https.port}" address="127.0.0.1" maxThreads="50" SSLEnabled="true"
                               protocol="org.apache.coyote.http11.Http11NioProtocol">
                      <SSLHostConfig>
                        <Certificate certificateFile="%s" certificateKeyFile="%s" />
                      </SSLHostConfig>
                    </Connector>
                    <Engine name="Catalina" defaultHost="localhost">
                      <Host name="localhost" appBase="webapps" unpackWARs="true" autoDeploy="false" />
                    </Engine>
                  </Service>
                </Server>
                """.formatted(tls.certificateFile(), tls.keyFile());
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** @return {@code https://127.0.0.1:PORT/ferry} */
    String baseUrl() {
        return "https://127.0.0.1:" + port + "/ferry";
    }

    /** @return Tomcat's console output so far */
    String output() throws IOException {
        return process.output();
    }

    @Override
    public void close() throws InterruptedException {
        process.close();
    }
}
