package org.ferry.mover.connect;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.sshd.client.SshClient;
import org.apache.sshd.client.session.ClientSession;
import org.apache.sshd.common.SshException;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.pkcs.PKCS10CertificationRequest;
import org.bouncycastle.pkcs.jcajce.JcaPKCS10CertificationRequestBuilder;
import org.ferry.gsi.credential.PemFiles;
import org.ferry.mover.storage.MountedStorage;

/**
 * {@code ferry-connect setup KEY}: pairs this machine with its endpoint, once. Makes an RSA key
 * pair here and a PKCS#10 request for it, dials the relay the setup key names, checks that the relay
 * shows the host key the setup key names, redeems the key for a certificate from the service's
 * online CA ({@link ConnectProtocol}), and writes the agent's home ({@link AgentHome}). The private
 * key never leaves the machine; the key's secret goes only to the named relay.
 */
public final class AgentSetup {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private AgentSetup() {}

    /**
     * @param key the setup key
     * @param directories what to share (each checked before anything is sent)
     * @param home where to write the agent's files; must not hold a pairing yet
     * @return the agent's settings as written
     * @throws SetupFailure with a message for the user: a directory missing, unreadable or not
     *     writable, a pairing already there, the relay unreachable or not the one the key names, the
     *     key unknown, used or expired
     */
    public static AgentHome.Config pair(SetupKey key, List<MountedStorage.Mount> directories, AgentHome home)
            throws SetupFailure {
        if (home.isPaired()) {
            throw new SetupFailure("this agent is already set up (" + home.dir() + "); to pair it again, stop it and"
                    + " remove that directory first");
        }
        if (directories.isEmpty()) {
            throw new SetupFailure("no directory to share");
        }
        for (MountedStorage.Mount m : directories) {
            String problem = MountedStorage.problem(m);
            if (problem != null) {
                throw new SetupFailure(problem);
            }
        }
        try {
            new MountedStorage(directories); // distinct names
        } catch (IllegalArgumentException | IOException e) {
            throw new SetupFailure(e.getMessage());
        }
        KeyPair pair;
        PKCS10CertificationRequest csr;
        try {
            KeyPairGenerator gen = KeyPairGenerator.getInstance("RSA");
            gen.initialize(2048, new SecureRandom());
            pair = gen.generateKeyPair();
            // the CA names the certificate after the endpoint; the request's subject is a placeholder
            csr = new JcaPKCS10CertificationRequestBuilder(new X500Name("CN=ferry-connect"), pair.getPublic())
                    .build(new JcaContentSignerBuilder("SHA256withRSA").build(pair.getPrivate()));
        } catch (GeneralSecurityException | OperatorCreationException e) {
            throw new SetupFailure("cannot make a key pair: " + e.getMessage(), e);
        }
        Properties answer = redeem(key, csr);
        String error = answer.getProperty(ConnectProtocol.ERROR);
        if (error != null) {
            throw new SetupFailure("the service refused the setup key: " + error);
        }
        try {
            AgentHome.Config config = new AgentHome.Config(
                    answer.getProperty(ConnectProtocol.AGENT),
                    key.relayHost(),
                    key.relayPort(),
                    key.hostKeyFingerprint(),
                    answer.getProperty(ConnectProtocol.FORWARD_HOST),
                    Integer.parseInt(answer.getProperty(ConnectProtocol.CONTROL_PORT)),
                    directories);
            write(home, pair, answer);
            home.save(config);
            return config;
        } catch (IOException | GeneralSecurityException | RuntimeException e) {
            throw new SetupFailure("cannot write the agent's files in " + home.dir() + ": " + e.getMessage(), e);
        }
    }

    private static Properties redeem(SetupKey key, PKCS10CertificationRequest csr) throws SetupFailure {
        String where = key.relayHost() + ":" + key.relayPort();
        SshClient client = RelayClients.start(key.hostKeyFingerprint(), Duration.ofSeconds(30));
        try {
            ClientSession session;
            try {
                session = client.connect(ConnectProtocol.SETUP_USER, key.relayHost(), key.relayPort())
                        .verify(TIMEOUT)
                        .getSession();
            } catch (IOException e) {
                throw new SetupFailure(
                        "cannot reach the service's relay at " + where + " (" + RelayClients.why(e) + ")", e);
            }
            try (session) {
                session.addPasswordIdentity(key.secret());
                try {
                    session.auth().verify(TIMEOUT);
                } catch (SshException e) {
                    if (String.valueOf(e.getMessage())
                            .toLowerCase(java.util.Locale.ROOT)
                            .contains("server key")) {
                        throw new SetupFailure(
                                "the relay at " + where
                                        + " is not the one the setup key names (its host key differs); nothing was sent",
                                e);
                    }
                    throw new SetupFailure("the relay at " + where + " refused the pairing: " + e.getMessage(), e);
                }
                Properties request = new Properties();
                request.setProperty("csr", PemFiles.toPem(List.of(csr)));
                return RelayExchange.exchange(session, ConnectProtocol.SETUP_COMMAND, request, TIMEOUT);
            } catch (IOException e) {
                if (String.valueOf(e.getMessage())
                        .toLowerCase(java.util.Locale.ROOT)
                        .contains("server key")) {
                    throw new SetupFailure(
                            "the relay at " + where
                                    + " is not the one the setup key names (its host key differs); nothing was sent",
                            e);
                }
                throw new SetupFailure("pairing with the relay at " + where + " failed: " + RelayClients.why(e), e);
            }
        } finally {
            client.stop();
        }
    }

    private static void write(AgentHome home, KeyPair pair, Properties answer)
            throws IOException, GeneralSecurityException {
        Files.createDirectories(home.dir());
        Files.createDirectories(home.trust());
        PemFiles.writePrivateKey(pair.getPrivate(), home.key()); // 0600
        X509Certificate cert = (X509Certificate) java.security.cert.CertificateFactory.getInstance("X.509")
                .generateCertificate(new java.io.ByteArrayInputStream(
                        answer.getProperty(ConnectProtocol.CERTIFICATE).getBytes(StandardCharsets.US_ASCII)));
        if (!java.util.Arrays.equals(
                cert.getPublicKey().getEncoded(), pair.getPublic().getEncoded())) {
            throw new GeneralSecurityException("the certificate the relay sent is not for this agent's key");
        }
        PemFiles.writeCertificates(List.of(cert), home.certificate());
        for (Map.Entry<Object, Object> e : answer.entrySet()) {
            String name = (String) e.getKey();
            if (name.startsWith(ConnectProtocol.TRUST_PREFIX)) {
                String file = name.substring(ConnectProtocol.TRUST_PREFIX.length());
                if (!file.matches("[0-9a-f]{1,8}\\.(0|signing_policy|r0)")) {
                    throw new GeneralSecurityException("unexpected trust file name " + file);
                }
                Files.writeString(home.trust().resolve(file), (String) e.getValue(), StandardCharsets.ISO_8859_1);
            }
        }
        StringBuilder gridmap = new StringBuilder();
        String user = System.getProperty("user.name");
        for (String dn : answer.getProperty(ConnectProtocol.GRIDMAP, "").split("\n")) {
            if (!dn.isBlank()) {
                gridmap.append('"')
                        .append(dn.strip())
                        .append("\" ")
                        .append(user)
                        .append('\n');
            }
        }
        Files.writeString(home.gridMap(), gridmap.toString(), StandardCharsets.UTF_8);
        try {
            Files.setPosixFilePermissions(home.dir(), PosixFilePermissions.fromString("rwx------"));
        } catch (UnsupportedOperationException e) {
            // not a POSIX file system: the key file's own mode is what matters
        }
    }
}
