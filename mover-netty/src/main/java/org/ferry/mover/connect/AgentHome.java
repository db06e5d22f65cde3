package org.ferry.mover.connect;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Properties;
import org.ferry.mover.storage.MountedStorage;

/**
 * The files of one Ferry Connect agent, in its home directory ({@code ~/.ferry-connect} by
 * default): {@code connect.properties} (the relay, the agent's id and control port, the shared
 * directories), {@code key.pem} (the agent's private key, made here, mode 0600, never sent),
 * {@code cert.pem} (its certificate from the online CA), {@code certificates/} (the trust directory
 * logins are checked against), {@code grid-mapfile} (who may log in), and while it runs
 * {@code agent.lock}, {@code agent.pid}, {@code status.properties} and {@code agent.log}. The agent
 * keeps no transfer state: the service holds it all (seed 000), so it can be stopped and started
 * at will.
 */
public final class AgentHome {

    /** The relay's host. */
    static final String RELAY_HOST = "relay.host";
    /** The relay's SSH port. */
    static final String RELAY_PORT = "relay.port";
    /** The relay's host key fingerprint, hex. */
    static final String RELAY_FINGERPRINT = "relay.fingerprint";

    private final Path dir;

    /** @param dir the home directory */
    public AgentHome(Path dir) {
        this.dir = dir.toAbsolutePath();
    }

    /** @return the directory */
    public Path dir() {
        return dir;
    }

    Path config() {
        return dir.resolve("connect.properties");
    }

    Path key() {
        return dir.resolve("key.pem");
    }

    Path certificate() {
        return dir.resolve("cert.pem");
    }

    Path trust() {
        return dir.resolve("certificates");
    }

    Path gridMap() {
        return dir.resolve("grid-mapfile");
    }

    /** @return the lock a running agent holds */
    public Path lock() {
        return dir.resolve("agent.lock");
    }

    /** @return the running agent's pid file */
    public Path pid() {
        return dir.resolve("agent.pid");
    }

    /** @return the running agent's status file */
    public Path status() {
        return dir.resolve("status.properties");
    }

    /** @return where {@code ferry-connect start} sends the agent's output */
    public Path log() {
        return dir.resolve("agent.log");
    }

    /** @return true once {@code ferry-connect setup} has paired this home */
    public boolean isPaired() {
        return Files.exists(config()) && Files.exists(certificate()) && Files.exists(key());
    }

    /**
     * The paired agent's settings.
     *
     * @param agentId its id
     * @param relayHost the relay's host
     * @param relayPort its SSH port
     * @param relayFingerprint its host key's fingerprint ({@link SetupKey#fingerprint})
     * @param forwardHost where the relay binds the agent's ports
     * @param controlPort the agent's control port there
     * @param directories what it shares
     */
    public record Config(
            String agentId,
            String relayHost,
            int relayPort,
            byte[] relayFingerprint,
            String forwardHost,
            int controlPort,
            List<MountedStorage.Mount> directories) {
        /** Copies the list. */
        public Config {
            directories = List.copyOf(directories);
        }
    }

    /**
     * @return the settings written at pairing (directories as edited since)
     * @throws IOException if the file is missing or damaged, with a message for the user
     */
    public Config load() throws IOException {
        if (!isPaired()) {
            throw new IOException("this agent is not set up yet (" + dir
                    + " has no pairing): run ferry-connect setup KEY with the key from the endpoint's page");
        }
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(config(), StandardCharsets.UTF_8)) {
            p.load(r);
        }
        try {
            List<MountedStorage.Mount> directories = new ArrayList<>();
            for (int i = 1; p.getProperty(ConnectProtocol.DIRECTORY_PREFIX + i) != null; i++) {
                directories.add(parseDirectory(p.getProperty(ConnectProtocol.DIRECTORY_PREFIX + i)));
            }
            return new Config(
                    p.getProperty(ConnectProtocol.AGENT),
                    p.getProperty(RELAY_HOST),
                    Integer.parseInt(p.getProperty(RELAY_PORT)),
                    HexFormat.of().parseHex(p.getProperty(RELAY_FINGERPRINT)),
                    p.getProperty(ConnectProtocol.FORWARD_HOST),
                    Integer.parseInt(p.getProperty(ConnectProtocol.CONTROL_PORT)),
                    directories);
        } catch (RuntimeException e) {
            throw new IOException(
                    config() + " is damaged (" + e.getMessage() + "); pair again with ferry-connect setup");
        }
    }

    /**
     * Writes the settings (atomically).
     *
     * @param config what to write
     * @throws IOException if the file cannot be written
     */
    public void save(Config config) throws IOException {
        Properties p = new Properties();
        p.setProperty(ConnectProtocol.AGENT, config.agentId());
        p.setProperty(RELAY_HOST, config.relayHost());
        p.setProperty(RELAY_PORT, Integer.toString(config.relayPort()));
        p.setProperty(RELAY_FINGERPRINT, HexFormat.of().formatHex(config.relayFingerprint()));
        p.setProperty(ConnectProtocol.FORWARD_HOST, config.forwardHost());
        p.setProperty(ConnectProtocol.CONTROL_PORT, Integer.toString(config.controlPort()));
        int i = 1;
        for (MountedStorage.Mount m : config.directories()) {
            p.setProperty(ConnectProtocol.DIRECTORY_PREFIX + i++, formatDirectory(m));
        }
        Files.createDirectories(dir);
        Path next = dir.resolve("connect.properties.new");
        try (Writer w = Files.newBufferedWriter(next, StandardCharsets.UTF_8)) {
            p.store(
                    w,
                    "Ferry Connect agent. Shared directories: directory.N=NAME|rw|PATH or NAME|ro|PATH"
                            + " (restart the agent after a change)");
        }
        Files.move(next, config(), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /**
     * @param m a shared directory
     * @return {@code name|rw|path} or {@code name|ro|path}
     */
    public static String formatDirectory(MountedStorage.Mount m) {
        return m.name() + "|" + (m.readOnly() ? "ro" : "rw") + "|" + m.directory();
    }

    /**
     * @param text {@code name|rw|path} or {@code name|ro|path}
     * @return the shared directory
     * @throws IllegalArgumentException if malformed
     */
    public static MountedStorage.Mount parseDirectory(String text) {
        String[] parts = text.split("\\|", 3);
        if (parts.length != 3 || !(parts[1].equals("rw") || parts[1].equals("ro"))) {
            throw new IllegalArgumentException("not NAME|rw|PATH or NAME|ro|PATH: " + text);
        }
        return new MountedStorage.Mount(parts[0], Path.of(parts[2]), parts[1].equals("ro"));
    }

    /**
     * Writes the running agent's status (atomically), for {@code ferry-connect status}.
     *
     * @param status what to write
     */
    void writeStatus(Properties status) {
        try {
            Path next = dir.resolve("status.properties.new");
            Files.write(next, ConnectProtocol.bytes(status));
            Files.move(next, status(), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            // the status file is a courtesy; the agent runs on without it
        }
    }

    /**
     * @return the last status an agent wrote, empty if none
     * @throws IOException if it cannot be read
     */
    public Properties readStatus() throws IOException {
        Properties p = new Properties();
        if (Files.exists(status())) {
            try (Reader r = Files.newBufferedReader(status(), StandardCharsets.ISO_8859_1)) {
                p.load(r);
            }
        }
        return p;
    }
}
