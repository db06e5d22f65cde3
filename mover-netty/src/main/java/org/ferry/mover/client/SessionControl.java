package org.ferry.mover.client;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.NoSuchFileException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.ferry.gsi.name.DistinguishedNames;
import org.ferry.mover.data.DataChannels;
import org.ferry.mover.data.ModeECache;
import org.ferry.mover.data.PassiveListener;
import org.ferry.mover.data.security.DataChannelAuthentication;
import org.ferry.mover.data.security.ProtectionLevel;
import org.ferry.mover.protocol.ClientCommands;
import org.ferry.mover.protocol.FtpReply;
import org.ferry.mover.protocol.HostPort;

/**
 * One client session's control connection and everything it has set on the server, as one value:
 * transmission mode, the last {@code OPTS RETR}, DCAU/PROT (through {@link ClientDataProtection}),
 * the FEAT lines, and the cached MODE E data connections with what they were set up for
 * ({@link DataUse}). Commands that change a setting go out only when the setting changes, as
 * globus-url-copy's session set-up does; every command that makes the server drop its cached data
 * connections (PASV, PORT, SPAS, SPOR, MODE, DCAU/PROT) drops ours too. Operations (two-party,
 * third-party, pipelined, striped) work through this class, never through another's fields. Not
 * thread-safe: used by the session's caller thread.
 */
final class SessionControl {

    private final GridFtpUrl url;
    private final ControlChannel channel;
    private DataChannels data; // secured per transfer by protection (DCAU/PROT)
    private ClientDataProtection protection;
    private TransferOptions.Mode mode = TransferOptions.Mode.STREAM; // RFC 959 default
    private Boolean extendedBlockMode; // null until asked
    private String retrOptions = ""; // the OPTS RETR options last set; "" = never set by us
    private List<String> features; // FEAT lines, upper case, once asked
    private final ModeECache dataCache = new ModeECache(); // our own cached connections (two-party)
    private PassiveListener downloadListener; // kept open while MODE E download connections are cached
    private InetSocketAddress uploadAddress; // the PASV address cached upload connections lead to
    private DataUse dataUse; // what the cached connections were last used for; null = nothing usable
    private int dataSetups; // PASV, PORT and SPOR commands sent, for tests of connection reuse
    private int tarSteps; // ERET TAR commands sent, for tests

    /**
     * @param url the server, path ignored
     * @param channel the logged-in (or logging-in) control connection
     * @param data the client's data channels without DCAU
     */
    SessionControl(GridFtpUrl url, ControlChannel channel, DataChannels data) {
        this.url = url.withPath("/");
        this.channel = channel;
        this.data = data;
        this.protection = new ClientDataProtection(null, data, false);
    }

    GridFtpUrl url() {
        return url;
    }

    ControlChannel channel() {
        return channel;
    }

    /** @return the data channels secured as the last {@link #protect} chose */
    DataChannels data() {
        return data;
    }

    /** @return our cached MODE E connections (two-party transfers) */
    ModeECache dataCache() {
        return dataCache;
    }

    /** @param value the DCAU/PROT state after a GSI login */
    void protection(ClientDataProtection value) {
        protection = value;
    }

    // ---- commands ----

    /** Sends one command and reads its final reply. */
    FtpReply command(String command) throws IOException {
        return command(command, command);
    }

    /**
     * @param forMessages the command as errors may show it (e.g. without a password)
     */
    FtpReply command(String command, String forMessages) throws IOException {
        channel.send(command);
        return channel.readFinal(forMessages, r -> {});
    }

    /**
     * @return the positive final reply
     * @throws GridFtpReplyException on any other
     */
    FtpReply expectOk(String command) throws IOException {
        FtpReply reply = command(command);
        checkOk(command, reply);
        return reply;
    }

    /** @throws GridFtpReplyException unless {@code reply} is a positive completion (2xx) */
    static void checkOk(String command, FtpReply reply) throws GridFtpReplyException {
        if (!reply.isPositiveCompletion()) {
            throw new GridFtpReplyException(command, reply.code(), reply.text());
        }
    }

    /**
     * Announces the size of the file the next store command writes (ALLO, RFC 959 section 4.1.3),
     * so that a server that checks it (ferry-gridftp) refuses a file that cannot fit before a byte
     * is sent. A server that does not speak ALLO (500, 502, 504) or takes it as superfluous (202)
     * is fine: the transfer goes on.
     *
     * @param bytes the file's size
     * @throws GridFtpReplyException 452 or 552: the destination lacks the space
     * @throws IOException if the connection fails
     */
    void allocate(long bytes) throws IOException {
        String command = "ALLO " + bytes;
        FtpReply reply = command(command);
        if (reply.code() == 452 || reply.code() == 552) {
            throw new GridFtpReplyException(command, reply.code(), reply.text());
        }
    }

    /** Sends REST and expects 350 (RFC 959 section 4.1.3). */
    void rest(String command) throws IOException {
        FtpReply reply = command(command);
        if (reply.code() != 350) {
            throw new GridFtpReplyException(command, reply.code(), reply.text());
        }
    }

    /**
     * The size of a file with SIZE (RFC 3659 section 4).
     *
     * @throws NoSuchFileException on 550
     * @throws IOException on other failures
     */
    long size(String path) throws IOException {
        return FileQueries.size(this, path);
    }

    /**
     * Sizes with SIZE, pipelined ({@link FileQueries#sizes}).
     *
     * @return each path's size, -1 where the server answered 550
     * @throws GridFtpReplyException for the first other refusal
     * @throws IOException if the connection fails or a reply is not a number
     */
    long[] sizes(List<String> paths) throws IOException {
        return FileQueries.sizes(channel, paths);
    }

    /**
     * Sets modification times, pipelined ({@link FileQueries#setModifiedTimes}): MFMT when FEAT
     * lists it, else SITE UTIME.
     *
     * @return each path's refusal, null where the time was set
     * @throws IllegalArgumentException if the lists differ in length, or a path or time cannot be sent
     * @throws IOException if the connection fails
     */
    GridFtpReplyException[] setModifiedTimes(List<String> paths, List<Instant> times) throws IOException {
        return FileQueries.setModifiedTimes(channel, paths, times, offers("MFMT"));
    }

    /**
     * @return whether the server speaks MODE E: FEAT lists {@code PARALLEL} (GridFTP servers) or
     *     {@code MODE E}; otherwise a {@code MODE E} asked once decides (the session is then in MODE
     *     E if it was accepted)
     */
    boolean speaksExtendedBlockMode() throws IOException {
        if (extendedBlockMode == null) {
            if (offers("PARALLEL") || offers("MODE E")) {
                extendedBlockMode = true;
            } else {
                dropData(); // a MODE change drops cached connections
                FtpReply reply = command(ClientCommands.mode(true));
                extendedBlockMode = reply.isPositiveCompletion();
                if (extendedBlockMode) {
                    mode = TransferOptions.Mode.EXTENDED_BLOCK;
                }
            }
        }
        return extendedBlockMode;
    }

    /**
     * @param feature a FEAT line's keyword, e.g. {@code TARSTREAM}
     * @return whether the server lists it; FEAT is asked once per session (RFC 2389)
     */
    boolean offers(String feature) throws IOException {
        if (features == null) {
            features(command("FEAT"));
        }
        String wanted = feature.toUpperCase(Locale.ROOT);
        return features.stream().anyMatch(line -> line.equals(wanted) || line.startsWith(wanted + " "));
    }

    /** As {@link #offers}, for one algorithm of the FEAT's CKSM line ({@code CKSM MD5;ADLER32;...;}). */
    boolean offersChecksum(String algorithm) throws IOException {
        if (features == null) {
            features(command("FEAT"));
        }
        String wanted = algorithm.toUpperCase(Locale.ROOT);
        return features.stream()
                .filter(line -> line.startsWith("CKSM "))
                .flatMap(line -> Arrays.stream(line.substring(5).split(";")))
                .anyMatch(name -> name.strip().equals(wanted));
    }

    /**
     * Keeps the server's answer to FEAT (RFC 2389 section 3.2), e.g. one read with the login.
     *
     * @param feat the FEAT reply; a refusal means no features
     */
    void features(FtpReply feat) {
        List<String> lines = new ArrayList<>();
        if (feat.isPositiveCompletion()) {
            for (String line : feat.lines().subList(1, Math.max(1, feat.lines().size() - 1))) {
                lines.add(line.strip().toUpperCase(Locale.ROOT));
            }
        }
        features = List.copyOf(lines);
    }

    // ---- settings ----

    /** Sends DCAU/PBSZ/PROT as {@code options} need and secures our data channels accordingly. */
    void protect(TransferOptions options) throws IOException {
        DataChannels next = protection.apply(options, this::expectOk);
        if (next != data) {
            dropData(); // DCAU/PROT changed: the server dropped its cached connections, and so do we
        }
        data = next;
    }

    /**
     * As {@link #protect}, for a transfer with {@code peer}'s server at the other end of the data
     * channels: when both servers authenticate data channels with different identities (each uses
     * the credential its session delegated) and the options leave DCAU to the default, this server
     * is told to expect the peer's identity ({@code DCAU S <subject>}, GFD.020 "DCAU") instead of
     * its own ({@code DCAU A}, which would refuse the peer). When the peer authenticates no data
     * channel (a clear-text {@code ftp://} server) and no protection is required, this side is
     * told {@code DCAU N}.
     */
    void protectFor(TransferOptions options, SessionControl peer) throws IOException {
        TransferOptions forThisSide = options;
        if (options.dataChannelAuthentication() == null) {
            String mine = protection.dataChannelIdentity();
            String theirs = peer.protection.dataChannelIdentity();
            if (mine != null && theirs != null && !DistinguishedNames.sameDn(mine, theirs)) {
                forThisSide = options.withDataChannelAuthentication(DataChannelAuthentication.subject(theirs));
            } else if (mine != null && theirs == null && protection.floor() == ProtectionLevel.CLEAR) {
                // the peer cannot authenticate a data channel (ftp://, or no DCAU): neither can
                // this side, or every channel between them fails its TLS handshake
                forThisSide = options.withDataChannelAuthentication(DataChannelAuthentication.NONE);
            }
        }
        protect(forThisSide);
    }

    /** @param level the least protection of every later data channel of this session */
    void requireProtection(ProtectionLevel level) throws IOException {
        protection.require(level);
    }

    /** @return the least protection of every data channel of this session */
    ProtectionLevel protectionFloor() {
        return protection.floor();
    }

    /** Sends MODE only when it differs from what this session last set. */
    void setMode(TransferOptions.Mode wanted) throws IOException {
        if (wanted != mode) {
            dropData(); // the server drops cached connections on a MODE change
            expectOk(ClientCommands.mode(wanted == TransferOptions.Mode.EXTENDED_BLOCK));
            mode = wanted;
        }
    }

    /**
     * Sends {@code OPTS RETR <options>} (GFD.020 "Options to RETR": each option ends with ';')
     * only when the options differ from what this session last set. The whole option string is
     * always sent, so the outcome does not depend on whether the server keeps options a later OPTS
     * RETR leaves out.
     */
    void setRetrOptions(String options) throws IOException {
        if (!options.equals(retrOptions)) {
            expectOk(ClientCommands.optsRetr(options));
            retrOptions = options;
        }
    }

    /** @return the {@code Parallelism=} option of OPTS RETR: start, minimum and maximum all {@code n} */
    static String parallelism(int n) {
        return ClientCommands.parallelismOption(n);
    }

    // ---- data connection set-up ----

    /** PASV (RFC 959 section 4.1.2) and the 227 address; 0.0.0.0 means the control connection's host. */
    InetSocketAddress pasv() throws IOException {
        dropData(); // a new PASV destroys the server's cached data connections
        dataSetups++;
        FtpReply reply = expectOk("PASV");
        return reachable(passiveAddress(reply.text()));
    }

    /**
     * SPAS (GFD.020 "SPAS"/"SPOR"): {@code 229-Entering Striped Passive Mode.}, one
     * {@code h1,h2,h3,h4,p1,p2} line per stripe, {@code 229 End}.
     *
     * @return the stripes' addresses, 0.0.0.0 replaced by the control connection's host
     */
    List<InetSocketAddress> spas() throws IOException {
        dropData(); // SPAS, like PASV, destroys the server's cached data connections
        FtpReply reply = expectOk("SPAS");
        List<InetSocketAddress> stripes = new ArrayList<>();
        for (String line : reply.lines().subList(1, reply.lines().size())) {
            if (line.matches(".*\\d+,\\d+,\\d+,\\d+,\\d+,\\d+.*")) {
                stripes.add(reachable(passiveAddress(line)));
            }
        }
        if (stripes.isEmpty()) {
            throw new GridFtpReplyException("SPAS", reply.code(), "no stripe address in reply: " + reply.text());
        }
        return stripes;
    }

    /** SPOR with the stripes' addresses (GFD.020 "SPOR"): the server connects to each. */
    void spor(List<InetSocketAddress> stripes) throws IOException {
        String spor = ClientCommands.spor(stripes);
        dropData();
        dataSetups++;
        expectOk(spor);
    }

    /** PORT (RFC 959 section 4.1.2): the server connects to {@code address} for the next transfers. */
    void port(InetSocketAddress address) throws IOException {
        dropData(); // so does the server
        sendPort(address);
    }

    private void sendPort(InetSocketAddress address) throws IOException {
        dataSetups++;
        expectOk(HostPort.portCommand(address));
    }

    /**
     * The listener the server's MODE E download connections come to: the cached one while the
     * previous operation was a download, else a new one announced with PORT.
     */
    PassiveListener downloadListener() throws IOException {
        if (!DataUse.DOWNLOAD.equals(dataUse) || downloadListener == null) {
            dropData();
            downloadListener = data.listen(channel.localAddress().getAddress());
            sendPort(downloadListener.address());
        }
        return downloadListener;
    }

    /**
     * The server's address for uploads: in MODE E the cached one while the previous operation was
     * an upload, else a new PASV.
     */
    InetSocketAddress uploadAddress(boolean modeE) throws IOException {
        if (!modeE || !DataUse.UPLOAD.equals(dataUse) || uploadAddress == null) {
            uploadAddress = pasv();
        }
        return uploadAddress;
    }

    /** @return whether the cached connections were set up for {@code use} */
    boolean cachedFor(DataUse use) {
        return use.equals(dataUse);
    }

    /**
     * Records what the data connections are now cached for; null when they must not be reused
     * (stream mode closes them).
     */
    void cachedFor(DataUse use, boolean cached) {
        dataUse = cached ? use : null;
    }

    /**
     * Forgets cached MODE E connections: ours are closed, the listener of cached downloads too.
     * Called whenever the server drops its own (PASV, PORT, MODE change) and after a failed transfer,
     * whose connections are in an unknown state.
     */
    void dropData() {
        dataUse = null;
        uploadAddress = null;
        dataCache.clear();
        if (downloadListener != null) {
            downloadListener.close();
            downloadListener = null;
        }
    }

    /** Counts one ERET TAR step sent (tests of the TAR module). */
    void countTarStep() {
        tarSteps++;
    }

    int dataSetups() {
        return dataSetups;
    }

    int tarSteps() {
        return tarSteps;
    }

    /** The address in a 227 reply or a SPAS reply line (RFC 959 section 4.1.2). */
    private static InetSocketAddress passiveAddress(String replyText) throws IOException {
        try {
            return HostPort.find(replyText);
        } catch (IllegalArgumentException e) {
            throw new IOException("bad passive address from the server: " + e.getMessage(), e);
        }
    }

    /** 0.0.0.0 in a passive reply means the control connection's host. */
    private InetSocketAddress reachable(InetSocketAddress address) {
        return address.getAddress().isAnyLocalAddress()
                ? new InetSocketAddress(channel.remoteAddress().getAddress(), address.getPort())
                : address;
    }
}
