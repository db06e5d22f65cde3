package org.ferry.api.connect;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.ferry.api.auth.FerryHome;
import org.ferry.gsi.ca.OnlineCa;
import org.ferry.gsi.credential.GsiCredential;
import org.ferry.gsi.credential.PemFiles;
import org.ferry.gsi.name.DistinguishedNames;
import org.ferry.gsi.trust.TrustRoots;
import org.ferry.mover.connect.ConnectProtocol;
import org.ferry.mover.connect.relay.AgentPresence;
import org.ferry.mover.connect.relay.CaAgentDirectory;
import org.ferry.mover.connect.relay.Relay;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * The Ferry Connect relay served by ferry-server (Globus Online's relay for Globus Connect, seed
 * 000): when {@code ferry.connect.listen} names {@code HOST:PORT}, an SSH relay ({@link Relay})
 * listens there for personal endpoints' agents, over an online CA in {@code <ferry.home>/connect/ca}
 * ({@code /O=Ferry/OU=Connect/CN=Ferry Connect CA}). The service's movers log in to every agent
 * with one credential this CA issued ({@code connect/ferry-mover.pem}, {@code CN=ferry/mover}),
 * which agents' grid-mapfiles name; only tasks of users allowed on an endpoint are dispatched to
 * it, so that credential carries no user's data elsewhere. Agents' control ports are bound on
 * {@code ferry.connect.forward-host} (default 127.0.0.1: movers in this JVM), from the range
 * {@code ferry.connect.control-ports} (default 42000-42999). Setup keys carry
 * {@code ferry.connect.public-host} (default: the listen host) and live
 * {@code ferry.connect.setup-key-lifetime} (default 24 h).
 */
@Component
public class ConnectRelay implements SmartLifecycle {

    /** The CA's base name and subject. */
    public static final String CA_SUBJECT = "/O=Ferry/OU=Connect/CN=Ferry Connect CA";
    /** The service name of the movers' certificate. */
    static final String MOVER_NAME = "ferry/mover";

    private static final Logger log = LoggerFactory.getLogger(ConnectRelay.class);

    private final Path dir;
    private final String listen;
    private final String publicHost;
    private final String forwardHost;
    private final String controlPorts;
    private final Duration keyLifetime;
    private OnlineCa ca;
    private CaAgentDirectory directory;
    private Relay relay;
    private String moverPem;
    private String moverDn;

    /**
     * @param home the state directory
     * @param listen {@code ferry.connect.listen}, {@code HOST:PORT}; empty: no relay
     * @param publicHost {@code ferry.connect.public-host}; empty: the listen host
     * @param forwardHost {@code ferry.connect.forward-host}
     * @param controlPorts {@code ferry.connect.control-ports}, {@code FIRST-LAST}
     * @param keyLifetime {@code ferry.connect.setup-key-lifetime}
     */
    public ConnectRelay(
            FerryHome home,
            @Value("${ferry.connect.listen:}") String listen,
            @Value("${ferry.connect.public-host:}") String publicHost,
            @Value("${ferry.connect.forward-host:127.0.0.1}") String forwardHost,
            @Value("${ferry.connect.control-ports:42000-42999}") String controlPorts,
            @Value("${ferry.connect.setup-key-lifetime:24h}") Duration keyLifetime) {
        this.dir = home.directory().resolve("connect");
        this.listen = listen == null ? "" : listen.trim();
        this.publicHost = publicHost;
        this.forwardHost = forwardHost;
        this.controlPorts = controlPorts;
        this.keyLifetime = keyLifetime;
    }

    /** @return true when this server runs a relay ({@code ferry.connect.listen} is set) */
    public boolean enabled() {
        return !listen.isEmpty();
    }

    /**
     * A new agent and its setup key.
     *
     * @param agentId the agent's id (16 hex digits)
     * @param setupKey the key its user gives {@code ferry-connect setup}: show it once
     * @param controlHost where movers reach its control channel
     * @param controlPort its control port there
     * @param subject the DN the agent's certificate will have
     * @param expires when the key stops being accepted
     */
    public record NewAgent(
            String agentId, String setupKey, String controlHost, int controlPort, String subject, Instant expires) {}

    /**
     * Records a new agent and makes its one-time setup key.
     *
     * @return the agent
     * @throws IllegalStateException if this server runs no relay
     * @throws UncheckedIOException if the CA's files cannot be written or no control port is left
     */
    public synchronized NewAgent newAgent() {
        running();
        Instant expires = Instant.now().plus(keyLifetime);
        try {
            CaAgentDirectory.NewAgent made = directory.newAgent(expires);
            String host = publicHost == null || publicHost.isBlank() ? listenHost() : publicHost;
            return new NewAgent(
                    made.agentId(),
                    relay.setupKey(host, made.secret()).encode(),
                    forwardHost,
                    made.controlPort(),
                    DistinguishedNames.oneline(ca.subjectFor(ConnectProtocol.SERVICE_PREFIX + made.agentId())),
                    expires);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * @param agentId an agent's id
     * @return its presence while it is connected
     */
    public Optional<AgentPresence> presence(String agentId) {
        Relay r = relay;
        return r == null || agentId == null ? Optional.empty() : r.presence(agentId);
    }

    /**
     * Revokes an agent: its certificate is revoked (the CRL movers check is rewritten) and its
     * connection cut at once; it cannot connect again.
     *
     * @param agentId the agent's id
     * @return true if a certificate was revoked or a connection cut
     */
    public synchronized boolean revoke(String agentId) {
        running();
        try {
            int revoked = directory.revoke(agentId);
            boolean cut = relay.disconnect(agentId);
            log.info("Ferry Connect agent {} revoked ({} certificate(s)){}", agentId, revoked, cut ? ", cut off" : "");
            return revoked > 0 || cut;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot revoke agent " + agentId + ": " + e.getMessage(), e);
        }
    }

    /** @return the movers' credential as PEM (key and chain): never log or show it */
    public String moverCredentialPem() {
        running();
        return moverPem;
    }

    /** @return the DN the movers log in to agents with */
    public String moverSubject() {
        running();
        return moverDn;
    }

    /**
     * @return the CA's trust directory files (CA certificate, signing policy, CRL) as movers add
     *     them to theirs: name to content
     */
    public TrustRoots trustRoots() {
        running();
        Map<String, byte[]> files = new TreeMap<>();
        try (DirectoryStream<Path> s = Files.newDirectoryStream(ca.trustDirectory())) {
            for (Path p : s) {
                if (TrustRoots.isTrustFileName(p.getFileName().toString())) {
                    files.put(p.getFileName().toString(), Files.readAllBytes(p));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return TrustRoots.of(files);
    }

    /** @return the port agents dial, or -1 when no relay runs */
    public int port() {
        Relay r = relay;
        return r == null ? -1 : r.port();
    }

    private void running() {
        if (relay == null) {
            throw new IllegalStateException(
                    "this server runs no Ferry Connect relay: set ferry.connect.listen=HOST:PORT to have one");
        }
    }

    private String listenHost() {
        return listen.substring(0, listen.lastIndexOf(':'));
    }

    @Override
    public synchronized void start() {
        if (!enabled() || relay != null) {
            return;
        }
        int colon = listen.lastIndexOf(':');
        String[] range = controlPorts.split("-");
        if (colon <= 0 || range.length != 2) {
            throw new IllegalStateException("ferry.connect.listen wants HOST:PORT and ferry.connect.control-ports"
                    + " FIRST-LAST: " + listen + ", " + controlPorts);
        }
        try {
            Files.createDirectories(dir);
            ca = Files.exists(dir.resolve("ca/cacert.pem"))
                    ? OnlineCa.open(dir.resolve("ca"))
                    : OnlineCa.create(CA_SUBJECT, dir.resolve("ca"), 2048);
            loadMoverCredential();
            directory = new CaAgentDirectory(
                    ca,
                    dir.resolve("agents"),
                    List.of(moverDn),
                    Integer.parseInt(range[0].trim()),
                    Integer.parseInt(range[1].trim()));
            relay = Relay.start(
                    new Relay.Settings(
                            listenHost(),
                            Integer.parseInt(listen.substring(colon + 1)),
                            forwardHost,
                            dir.resolve("hostkey"),
                            Duration.ofSeconds(120)),
                    directory,
                    line -> log.info("Ferry Connect relay: {}", line));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the Ferry Connect relay at " + listen, e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot open the Ferry Connect CA in " + dir + ": " + e.getMessage(), e);
        }
        log.info(
                "Ferry Connect relay listening at {}:{}, agents' control ports on {}",
                listenHost(),
                relay.port(),
                forwardHost);
    }

    /** Reads the movers' credential, or has the CA issue one (again when it ends within 30 days). */
    private void loadMoverCredential() throws IOException, GeneralSecurityException {
        Path file = dir.resolve("ferry-mover.pem");
        GsiCredential credential = Files.exists(file) ? PemFiles.readCredential(file) : null;
        if (credential == null || credential.notAfter().isBefore(Instant.now().plus(Duration.ofDays(30)))) {
            String key = ca.newSetupKey(MOVER_NAME, Duration.ofMinutes(5));
            credential = ca.issueHostCredential(MOVER_NAME, key);
            Files.deleteIfExists(file);
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            PemFiles.writeCredential(credential, file);
        }
        moverPem = PemFiles.credentialPem(credential);
        moverDn = DistinguishedNames.oneline(credential.certificate().getSubjectX500Principal());
    }

    @Override
    public synchronized void stop() {
        if (relay != null) {
            try {
                relay.close();
            } catch (IOException e) {
                log.warn("closing the Ferry Connect relay: {}", e.getMessage());
            }
            relay = null;
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return relay != null;
    }

    /** Starts before the mover and stops after it, as the personal endpoint does. */
    @Override
    public int getPhase() {
        return DEFAULT_PHASE - 1000;
    }
}
