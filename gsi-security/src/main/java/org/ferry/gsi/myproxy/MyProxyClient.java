package org.ferry.gsi.myproxy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import org.ferry.gsi.credential.GsiCredential;
import org.ferry.gsi.delegation.DelegationRequest;
import org.ferry.gsi.name.DistinguishedNames;
import org.ferry.gsi.trust.ChainValidator;
import org.ferry.gsi.trust.GsiTrustManager;
import org.ferry.gsi.trust.TrustRoots;
import org.ferry.gsi.trust.TrustStore;
import org.ferry.gsi.trust.ValidatedChain;

/**
 * Retrieves a proxy credential from a MyProxy server with a username and passphrase, as
 * {@code myproxy-logon} does (reference section 6; myproxy {@code PROTOCOL}):
 * TLS to port 7512 (anonymous client), the GSI delegation flag {@code '0'}, a
 * {@code VERSION=MYPROXYv2 / COMMAND=0} request, a SHA-256 PKCS#10 request for a fresh 2048-bit
 * key, and the reply of one count byte followed by that many DER certificates.
 *
 * <p>The server must present a certificate named {@code host/<host>} or {@code myproxy/<host>}
 * (the host connected to), unless an expected DN is given (as {@code MYPROXY_SERVER_DN} does).
 * The passphrase is never stored, logged, or turned into a String; the caller's array is cleared.
 */
public final class MyProxyClient {
    /** The MyProxy port (MYPROXY_SERVER_PORT). */
    public static final int DEFAULT_PORT = 7512;

    private static final int CONNECT_TIMEOUT_MILLIS = 10_000;
    private static final int READ_TIMEOUT_MILLIS = 60_000;

    private final String host;
    private final int port;
    private final ChainValidator validator;
    private final TrustStore trustStore;
    private final String expectedServerDn;
    private final boolean bootstrapTrust;

    /**
     * What a retrieval brought back.
     *
     * @param credential the new proxy credential (validated unless the client bootstraps trust)
     * @param trustRoots the server's trust roots when they were asked for, else empty
     * @param serverChain the chain the server presented in the TLS handshake, leaf first
     */
    public record Retrieval(GsiCredential credential, TrustRoots trustRoots, List<X509Certificate> serverChain) {
        /** Copies the chain. */
        public Retrieval {
            serverChain = List.copyOf(serverChain);
        }
    }

    /**
     * @param host             server host name, also used for the identity check
     * @param port             server port, usually {@link #DEFAULT_PORT}
     * @param validator        validates the server's chain and the retrieved credential
     * @param trustStore       CA certificates (sent as acceptable issuers)
     * @param expectedServerDn oneline DN the server must have, or null for {@code host/<host>}
     *                         or {@code myproxy/<host>}
     */
    public MyProxyClient(
            String host, int port, ChainValidator validator, TrustStore trustStore, String expectedServerDn) {
        this(host, port, validator, trustStore, expectedServerDn, false);
    }

    private MyProxyClient(
            String host,
            int port,
            ChainValidator validator,
            TrustStore trustStore,
            String expectedServerDn,
            boolean bootstrapTrust) {
        this.host = host;
        this.port = port;
        this.validator = validator;
        this.trustStore = trustStore;
        this.expectedServerDn = expectedServerDn;
        this.bootstrapTrust = bootstrapTrust;
    }

    /**
     * A client that bootstraps trust as {@code myproxy-logon -b} does: it accepts a server whose
     * chain is signed up to a self-signed CA certificate that the server itself presents (trust on
     * first use; the server must still have the expected identity), and asks for the server's trust
     * roots. Nothing it returns is validated: check the server chain and the credential against the
     * returned roots before trusting either.
     *
     * @param host server host name, also used for the identity check
     * @param port server port
     * @param expectedServerDn oneline DN the server must have, or null for {@code host/<host>} or
     *     {@code myproxy/<host>}
     * @return the client
     */
    public static MyProxyClient bootstrapping(String host, int port, String expectedServerDn) {
        return new MyProxyClient(host, port, null, null, expectedServerDn, true);
    }

    /**
     * Retrieves a proxy (MyProxy GET).
     *
     * @param username   the MyProxy account name
     * @param passphrase its passphrase; cleared (filled with NULs) before this method returns
     * @param lifetime   requested proxy lifetime (the server may cap it); myproxy-logon uses 12 h
     * @return the new credential: its key, the new proxy, the stored credential's chain
     * @throws MyProxyException         if the server refuses (message = the server's ERROR lines)
     *                                  or breaks the protocol
     * @throws IOException              on network failures, including a rejected server certificate
     * @throws GeneralSecurityException if the returned credential does not validate
     */
    public GsiCredential get(String username, char[] passphrase, Duration lifetime)
            throws IOException, GeneralSecurityException {
        return retrieve(username, passphrase, lifetime, false).credential();
    }

    /**
     * Retrieves a proxy (MyProxy GET), optionally with the server's trust roots
     * ({@code TRUSTED_CERTS}, as {@code myproxy-logon -T}; the server sends them only when its
     * configuration names a {@code cert_dir}).
     *
     * @param username the MyProxy account name
     * @param passphrase its passphrase; cleared (filled with NULs) before this method returns
     * @param lifetime requested proxy lifetime (the server may cap it)
     * @param trustRoots whether to ask for the server's trust roots (always asked when bootstrapping)
     * @return the credential, the trust roots (empty when not asked for or not sent) and the
     *     server's chain
     * @throws MyProxyException if the server refuses (message = the server's ERROR lines) or breaks
     *     the protocol
     * @throws IOException on network failures, including a rejected server certificate
     * @throws GeneralSecurityException if the returned credential does not validate
     */
    public Retrieval retrieve(String username, char[] passphrase, Duration lifetime, boolean trustRoots)
            throws IOException, GeneralSecurityException {
        byte[] request = null;
        try {
            request = MyProxyMessages.getRequest(
                    username, passphrase, lifetime.toSeconds(), trustRoots || bootstrapTrust);
            try (SSLSocket socket = connect()) {
                List<X509Certificate> serverChain = new ArrayList<>();
                for (var c : socket.getSession().getPeerCertificates()) {
                    serverChain.add((X509Certificate) c);
                }
                OutputStream out = socket.getOutputStream();
                InputStream in = socket.getInputStream();
                // GSI delegation flag: "no delegation from the client" (myproxy_bootstrap_trust).
                out.write('0');
                out.flush();
                out.write(request);
                out.flush();
                Arrays.fill(request, (byte) 0);
                // myproxy-server sends its trust roots (TRUSTED_CERTS) with this first response
                MyProxyMessages.Response first = checkOk(readMessage(in, new ByteArrayOutputStream()));

                DelegationRequest csr = DelegationRequest.create(2048, "CN=proxy");
                out.write(csr.csrDer());
                out.flush();
                GsiCredential credential = readCredential(in, csr);
                if (!bootstrapTrust) {
                    validator.validate(credential.chain());
                }
                return new Retrieval(credential, trustRoots(first), serverChain);
            }
        } finally {
            if (request != null) {
                Arrays.fill(request, (byte) 0);
            }
            Arrays.fill(passphrase, '\0');
        }
    }

    private SSLSocket connect() throws IOException, GeneralSecurityException {
        TrustManager trust = bootstrapTrust
                ? new FirstUseTrustManager(this::isExpectedServer)
                : new GsiTrustManager(validator, trustStore, this::isExpectedServer);
        SSLContext context = SSLContext.getInstance("TLS");
        // No key managers: an anonymous client, as myproxy-logon without a credential.
        context.init(null, new TrustManager[] {trust}, new SecureRandom());
        SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket();
        try {
            socket.connect(new InetSocketAddress(host, port), CONNECT_TIMEOUT_MILLIS);
            socket.setSoTimeout(READ_TIMEOUT_MILLIS);
            socket.setEnabledProtocols(new String[] {"TLSv1.3", "TLSv1.2"});
            socket.startHandshake();
            return socket;
        } catch (IOException e) {
            socket.close();
            throw new IOException(
                    "TLS handshake with MyProxy server " + host + ":" + port + " failed: " + e.getMessage(), e);
        }
    }

    private boolean isExpectedServer(ValidatedChain chain) {
        return isExpectedServer(chain.identity());
    }

    private boolean isExpectedServer(String id) {
        if (expectedServerDn != null) {
            return DistinguishedNames.sameDn(id, expectedServerDn);
        }
        return id.endsWith("/CN=host/" + host) || id.endsWith("/CN=myproxy/" + host);
    }

    private MyProxyMessages.Response checkOk(String text) throws MyProxyException {
        MyProxyMessages.Response r = MyProxyMessages.parseResponse(text);
        if (r.code() == 1) {
            throw new MyProxyException("ERROR from myproxy-server " + host + ":" + port + ": "
                    + String.join(" ", r.errors()).strip());
        } else if (r.code() == 2) {
            throw new MyProxyException("myproxy-server asks for an authorization method Ferry does not support");
        } else if (r.code() != 0) {
            throw new MyProxyException("unknown MyProxy response code " + r.code());
        }
        return r;
    }

    private static TrustRoots trustRoots(MyProxyMessages.Response response) throws MyProxyException {
        try {
            return TrustRoots.of(response.trustRoots());
        } catch (IllegalArgumentException e) {
            throw new MyProxyException("MyProxy server sent trust roots Ferry refuses: " + e.getMessage());
        }
    }

    /**
     * Reads until the buffered text holds a complete response: a RESPONSE line and the NUL that
     * ends myproxy-server's messages, or, from a server that does not send one, a line end with
     * nothing more pending and a FILEDATA line for every trust root the message lists.
     */
    private static String readMessage(InputStream in, ByteArrayOutputStream buffer) throws IOException {
        byte[] chunk = new byte[16384];
        while (true) {
            String text = buffer.toString(StandardCharsets.UTF_8);
            if (text.contains("RESPONSE=")
                    && (text.endsWith("\0") || (text.endsWith("\n") && in.available() == 0 && allFileData(text)))) {
                return text;
            }
            int n = in.read(chunk);
            if (n < 0) {
                if (text.contains("RESPONSE=")) {
                    return text;
                }
                throw new MyProxyException(
                        "MyProxy server closed the connection" + (text.isEmpty() ? "" : " after: " + text.strip()));
            }
            buffer.write(chunk, 0, n);
        }
    }

    private static boolean allFileData(String text) {
        int start = text.indexOf("TRUSTED_CERTS=");
        if (start < 0) {
            return true;
        }
        int end = text.indexOf('\n', start);
        String names = text.substring(start + "TRUSTED_CERTS=".length(), end < 0 ? text.length() : end);
        for (String name : names.split(",")) {
            if (!name.isBlank() && !text.contains("FILEDATA_" + name.strip() + "=")) {
                return false;
            }
        }
        return true;
    }

    /**
     * Reads the delegation reply: one byte N, then N DER certificates (new proxy first, or the one
     * certificate a MyProxy CA issued), then,
     * possibly in the same read, the final {@code VERSION=MYPROXYv2 RESPONSE=0} message.
     */
    private GsiCredential readCredential(InputStream in, DelegationRequest csr)
            throws IOException, GeneralSecurityException {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        byte[] chunk = new byte[16384];
        List<byte[]> ders;
        while ((ders = parseCertificates(buffer.toByteArray())) == null) {
            int n = in.read(chunk);
            if (n < 0) {
                throw new MyProxyException("MyProxy server closed the connection during delegation");
            }
            buffer.write(chunk, 0, n);
            String asText = buffer.toString(StandardCharsets.ISO_8859_1);
            if (asText.startsWith("VERSION=")) {
                // An error instead of certificates (e.g. lifetime or policy refusal).
                checkOk(readMessage(in, buffer));
                throw new MyProxyException("MyProxy server sent a response instead of certificates");
            }
        }
        byte[] all = buffer.toByteArray();
        int used = 1 + ders.stream().mapToInt(d -> d.length).sum();
        ByteArrayOutputStream rest = new ByteArrayOutputStream();
        rest.write(all, used, all.length - used);
        checkOk(readMessage(in, rest));

        CertificateFactory cf = CertificateFactory.getInstance("X.509");
        List<X509Certificate> chain = new ArrayList<>();
        for (byte[] der : ders.subList(1, ders.size())) {
            chain.add((X509Certificate) cf.generateCertificate(new ByteArrayInputStream(der)));
        }
        // one certificate alone: the server is an online CA and issued it (no stored credential
        // delegated a proxy); else a proxy followed by the stored credential's chain
        return chain.isEmpty() ? csr.completeIssued(ders.get(0)) : csr.complete(ders.get(0), chain);
    }

    /** @return the DER certificates if all {@code data[0]} of them are complete, else null */
    static List<byte[]> parseCertificates(byte[] data) throws MyProxyException {
        if (data.length == 0) {
            return null;
        }
        int count = data[0] & 0xff;
        if (count == 0) {
            throw new MyProxyException("MyProxy server sent no certificates");
        }
        List<byte[]> certs = new ArrayList<>();
        int pos = 1;
        for (int i = 0; i < count; i++) {
            int length = derLength(data, pos);
            if (length < 0 || pos + length > data.length) {
                return null;
            }
            certs.add(Arrays.copyOfRange(data, pos, pos + length));
            pos += length;
        }
        return certs;
    }

    /** @return total length (header + content) of the DER SEQUENCE at pos, or -1 if incomplete */
    private static int derLength(byte[] data, int pos) throws MyProxyException {
        if (pos + 2 > data.length) {
            return -1;
        }
        if (data[pos] != 0x30) {
            throw new MyProxyException("MyProxy delegation reply is not a DER certificate sequence");
        }
        int first = data[pos + 1] & 0xff;
        if (first < 0x80) {
            return 2 + first;
        }
        int octets = first & 0x7f;
        if (octets > 4) {
            throw new MyProxyException("MyProxy delegation reply has an oversized certificate");
        }
        if (pos + 2 + octets > data.length) {
            return -1;
        }
        int len = 0;
        for (int i = 0; i < octets; i++) {
            len = (len << 8) | (data[pos + 2 + i] & 0xff);
        }
        return 2 + octets + len;
    }
}
