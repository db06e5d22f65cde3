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
import org.ferry.gsi.credential.GsiCredential;
import org.ferry.gsi.delegation.DelegationRequest;
import org.ferry.gsi.name.DistinguishedNames;
import org.ferry.gsi.trust.ChainValidator;
import org.ferry.gsi.trust.GsiTrustManager;
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
        this.host = host;
        this.port = port;
        this.validator = validator;
        this.trustStore = trustStore;
        this.expectedServerDn = expectedServerDn;
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
        byte[] request = null;
        try {
            request = MyProxyMessages.getRequest(username, passphrase, lifetime.toSeconds());
            try (SSLSocket socket = connect()) {
                OutputStream out = socket.getOutputStream();
                InputStream in = socket.getInputStream();
                // GSI delegation flag: "no delegation from the client" (myproxy_bootstrap_trust).
                out.write('0');
                out.flush();
                out.write(request);
                out.flush();
                Arrays.fill(request, (byte) 0);
                checkOk(readMessage(in, new ByteArrayOutputStream()));

                DelegationRequest csr = DelegationRequest.create(2048, "CN=proxy");
                out.write(csr.csrDer());
                out.flush();
                GsiCredential credential = readCredential(in, csr);
                validator.validate(credential.chain());
                return credential;
            }
        } finally {
            if (request != null) {
                Arrays.fill(request, (byte) 0);
            }
            Arrays.fill(passphrase, '\0');
        }
    }

    private SSLSocket connect() throws IOException, GeneralSecurityException {
        GsiTrustManager trust = new GsiTrustManager(validator, trustStore, this::isExpectedServer);
        SSLContext context = SSLContext.getInstance("TLS");
        // No key managers: an anonymous client, as myproxy-logon without a credential.
        context.init(null, new javax.net.ssl.TrustManager[] {trust}, new SecureRandom());
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
        String id = chain.identity();
        if (expectedServerDn != null) {
            return DistinguishedNames.sameDn(id, expectedServerDn);
        }
        return id.endsWith("/CN=host/" + host) || id.endsWith("/CN=myproxy/" + host);
    }

    private void checkOk(String text) throws MyProxyException {
        MyProxyMessages.Response r = MyProxyMessages.parseResponse(text);
        if (r.code() == 1) {
            throw new MyProxyException("ERROR from myproxy-server " + host + ":" + port + ": "
                    + String.join(" ", r.errors()).strip());
        } else if (r.code() == 2) {
            throw new MyProxyException("myproxy-server asks for an authorization method Ferry does not support");
        } else if (r.code() != 0) {
            throw new MyProxyException("unknown MyProxy response code " + r.code());
        }
    }

    /** Reads until the buffered text holds a complete response (a RESPONSE line and the record's end). */
    private static String readMessage(InputStream in, ByteArrayOutputStream buffer) throws IOException {
        byte[] chunk = new byte[16384];
        while (true) {
            String text = buffer.toString(StandardCharsets.UTF_8);
            if (text.contains("RESPONSE=") && (text.endsWith("\n") || text.endsWith("\0")) && in.available() == 0) {
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

    /**
     * Reads the delegation reply: one byte N, then N DER certificates (new proxy first), then,
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
        return csr.complete(ders.get(0), chain);
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
