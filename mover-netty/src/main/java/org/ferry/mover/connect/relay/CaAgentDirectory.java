package org.ferry.mover.connect.relay;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import org.bouncycastle.pkcs.PKCS10CertificationRequest;
import org.ferry.gsi.ca.OnlineCa;
import org.ferry.gsi.name.DistinguishedNames;
import org.ferry.mover.connect.ConnectProtocol;

/**
 * An {@link AgentDirectory} over an online CA directory and a directory of agent records
 * ({@code agents/<id>.properties}: the control port), for the stand-alone relay
 * ({@code ferry-connect-relay}) and tests: an agent may connect while the CA holds a current
 * certificate for {@code connect/<id>} whose key is the one it proves; revoking that certificate
 * ({@link #revoke}, also from another process) shuts it out. Control ports are handed out from a
 * range, one per agent, kept for its life. Thread-safe within one process.
 */
public final class CaAgentDirectory implements AgentDirectory {

    /**
     * A new agent's record and its setup key's secret.
     *
     * @param agentId its id
     * @param secret the setup key's secret, to hand to its user once
     * @param controlPort its control port on the relay
     */
    public record NewAgent(String agentId, String secret, int controlPort) {}

    private final OnlineCa ca;
    private final Path agents;
    private final List<String> allowedSubjects;
    private final int firstPort;
    private final int lastPort;
    private final SecureRandom random = new SecureRandom();

    /**
     * @param ca the online CA that certifies agents
     * @param agents where agent records live (created if missing)
     * @param allowedSubjects the DNs that may log in to every agent (its grid-mapfile)
     * @param firstPort the control port range's first port
     * @param lastPort its last port
     * @throws IOException if the records' directory cannot be created
     */
    public CaAgentDirectory(OnlineCa ca, Path agents, List<String> allowedSubjects, int firstPort, int lastPort)
            throws IOException {
        if (firstPort < 1024 || lastPort > 65535 || firstPort > lastPort) {
            throw new IllegalArgumentException("control ports must be a range within 1024..65535");
        }
        this.ca = ca;
        this.agents = Files.createDirectories(agents);
        this.allowedSubjects = List.copyOf(allowedSubjects);
        this.firstPort = firstPort;
        this.lastPort = lastPort;
    }

    /**
     * Records a new agent and makes its setup key.
     *
     * @param lifetime how long the key may wait to be used
     * @return the agent's id, key secret and control port
     * @throws IOException if no control port is left or the records cannot be written
     */
    public synchronized NewAgent newAgent(Duration lifetime) throws IOException {
        if (lifetime.isNegative() || lifetime.isZero()) {
            throw new IllegalArgumentException("lifetime must be positive");
        }
        return newAgent(java.time.Instant.now().plus(lifetime));
    }

    /**
     * As {@link #newAgent(Duration)}, the key valid until {@code expires}.
     *
     * @param expires when the key stops being accepted
     * @return the agent's id, key secret and control port
     * @throws IOException if no control port is left or the records cannot be written
     */
    public synchronized NewAgent newAgent(java.time.Instant expires) throws IOException {
        byte[] raw = new byte[8];
        random.nextBytes(raw);
        String id = HexFormat.of().formatHex(raw);
        Set<Integer> used = new HashSet<>();
        try (DirectoryStream<Path> s = Files.newDirectoryStream(agents, "*.properties")) {
            for (Path p : s) {
                used.add(Integer.parseInt(load(p).getProperty(ConnectProtocol.CONTROL_PORT, "0")));
            }
        }
        int port = firstPort;
        while (used.contains(port)) {
            port++;
        }
        if (port > lastPort) {
            throw new IOException("no control port left in " + firstPort + ".." + lastPort);
        }
        Properties record = new Properties();
        record.setProperty(ConnectProtocol.CONTROL_PORT, Integer.toString(port));
        Path file = agents.resolve(id + ".properties");
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.ISO_8859_1)) {
            record.store(w, "Ferry Connect agent " + id);
        }
        String secret = ca.newSetupKey(ConnectProtocol.SERVICE_PREFIX + id, expires);
        return new NewAgent(id, secret, port);
    }

    @Override
    public Pairing pair(String setupSecret, PKCS10CertificationRequest csr)
            throws GeneralSecurityException, IOException {
        X509Certificate cert = ca.redeemSetupKey(csr, setupSecret);
        String cn = DistinguishedNames.oneline(cert.getSubjectX500Principal());
        String id =
                cn.substring(cn.lastIndexOf(ConnectProtocol.SERVICE_PREFIX) + ConnectProtocol.SERVICE_PREFIX.length());
        int port = port(id).orElseThrow(() -> new IOException("no record of agent " + id));
        Map<String, String> trust = new TreeMap<>();
        try (DirectoryStream<Path> s = Files.newDirectoryStream(ca.trustDirectory())) {
            for (Path p : s) {
                trust.put(p.getFileName().toString(), Files.readString(p, StandardCharsets.ISO_8859_1));
            }
        }
        return new Pairing(id, cert, trust, allowedSubjects, port);
    }

    @Override
    public OptionalInt controlPort(String agentId, PublicKey key) throws IOException {
        if (!agentId.matches(ConnectProtocol.AGENT_ID_PATTERN)) {
            return OptionalInt.empty();
        }
        Optional<X509Certificate> cert = ca.currentCertificate(ConnectProtocol.SERVICE_PREFIX + agentId);
        if (cert.isEmpty() || !Arrays.equals(cert.get().getPublicKey().getEncoded(), key.getEncoded())) {
            return OptionalInt.empty();
        }
        return port(agentId);
    }

    /**
     * Revokes every certificate of the agent (the CA's CRL is rewritten): it can no longer connect,
     * and GSI peers that read the CRL refuse it.
     *
     * @param agentId the agent's id
     * @return how many certificates were revoked (0: unknown agent or revoked already)
     * @throws IOException if the CA directory cannot be updated
     * @throws GeneralSecurityException if signing the CRL fails
     */
    public synchronized int revoke(String agentId) throws IOException, GeneralSecurityException {
        int revoked = 0;
        Optional<X509Certificate> cert;
        while ((cert = ca.currentCertificate(ConnectProtocol.SERVICE_PREFIX + agentId)).isPresent()) {
            ca.revoke(cert.get());
            revoked++;
        }
        return revoked;
    }

    /** @return the ids of the agents on record */
    public List<String> agentIds() throws IOException {
        List<String> ids = new ArrayList<>();
        try (DirectoryStream<Path> s = Files.newDirectoryStream(agents, "*.properties")) {
            for (Path p : s) {
                String name = p.getFileName().toString();
                ids.add(name.substring(0, name.length() - ".properties".length()));
            }
        }
        ids.sort(null);
        return ids;
    }

    /** @return the directory of the CA's revocations, which a running relay watches */
    public Path revocations() {
        return ca.trustDirectory().getParent().resolve("revoked");
    }

    private OptionalInt port(String agentId) throws IOException {
        Path file = agents.resolve(agentId + ".properties");
        if (!Files.exists(file)) {
            return OptionalInt.empty();
        }
        return OptionalInt.of(Integer.parseInt(load(file).getProperty(ConnectProtocol.CONTROL_PORT)));
    }

    private static Properties load(Path file) throws IOException {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.ISO_8859_1)) {
            p.load(r);
        }
        return p;
    }
}
