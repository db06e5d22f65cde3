package org.ferry.mover.server.pi;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.ferry.gsi.context.SecurityContext;
import org.ferry.mover.data.DataEndpoint;
import org.ferry.mover.data.ModeECache;
import org.ferry.mover.data.PassiveListener;

/**
 * The typed state of one control channel session (RFC 959 section 5.1 defaults: TYPE A, MODE S,
 * STRU F; GridFTP parallelism 1, GFD.020). Mutated only by the session's command worker, except
 * the active transfer, which the event loop may abort. Not shared between sessions.
 */
public final class ControlSession {

    private String pendingUser;
    private String user;
    private String cwd = "/";
    private boolean binaryType;
    private TransferMode mode = TransferMode.STREAM;
    private long restartOffset;
    private String restartRanges;
    private long allocationBytes = -1;
    private String renameFrom;
    private int parallelism = 1;
    private int bufferSizeBytes;
    private int sendBufferBytes;
    private int receiveBufferBytes;
    private String clientInfo;
    private int failedLogins;
    private int sendMarkerSeconds;
    private Duration perfMarkerInterval;
    private String expectedChecksumAlgorithm;
    private String expectedChecksum;
    private Duration restartMarkerInterval;
    private DataEndpoint dataEndpoint;
    private List<InetSocketAddress> stripedTargets;
    private int stripeBlockSizeBytes;
    private final ModeECache dataCache = new ModeECache();
    private final GsiServerSecurity gsi;
    private volatile SecurityContext securityContext;
    private final DataProtectionState dataProtection = new DataProtectionState();
    private volatile CompletableFuture<?> activeTransfer;
    private volatile boolean closed;
    private volatile StorageStage storageStage;

    /** A session of a server without GSI. */
    public ControlSession() {
        this(null);
    }

    /** @param gsi the server's GSI settings, or null when it offers no GSI logins */
    public ControlSession(GsiServerSecurity gsi) {
        this.gsi = gsi;
    }

    /** @return the server's GSI settings (host credential, trust, grid-mapfile), or null without GSI */
    public GsiServerSecurity gsi() {
        return gsi;
    }

    /**
     * @return the GSS security context of this session: set by {@code AUTH GSSAPI}, established by
     *     the ADAT exchange (RFC 2228 section 3), or null
     */
    public SecurityContext securityContext() {
        return securityContext;
    }

    /** @param value the context AUTH started, or null to forget a failed one */
    public void securityContext(SecurityContext value) {
        securityContext = value;
    }

    /** @return the session's DCAU, PROT and PBSZ settings (GFD.020, RFC 2228) */
    public DataProtectionState dataProtection() {
        return dataProtection;
    }

    /** @return the name given by USER and not yet confirmed by PASS, or null */
    public String pendingUser() {
        return pendingUser;
    }

    /** @param value the name given by USER, or null to clear */
    public void pendingUser(String value) {
        pendingUser = value;
    }

    /** @return the logged-in user, or null before a successful PASS */
    public String user() {
        return user;
    }

    /** @param value the user that logged in */
    public void user(String value) {
        user = value;
    }

    /** @return true after a successful login */
    public boolean loggedIn() {
        return user != null;
    }

    /** @return the current virtual directory, normalised, e.g. {@code /} or {@code /a/b} */
    public String cwd() {
        return cwd;
    }

    /** @param value the new current virtual directory (normalised) */
    public void cwd(String value) {
        cwd = value;
    }

    /** @return true after TYPE I (image), false for TYPE A (the RFC 959 default) */
    public boolean binaryType() {
        return binaryType;
    }

    /** @param value true for TYPE I */
    public void binaryType(boolean value) {
        binaryType = value;
    }

    /** @return the transmission mode, STREAM until MODE E */
    public TransferMode mode() {
        return mode;
    }

    /** @param value the transmission mode */
    public void mode(TransferMode value) {
        mode = value;
    }

    /** @return the stream-mode restart offset in bytes set by REST n, 0 if none */
    public long restartOffset() {
        return restartOffset;
    }

    /** @return the MODE E restart ranges from REST a-b,c-d (end exclusive), or null */
    public String restartRanges() {
        return restartRanges;
    }

    /**
     * @param offset stream restart offset in bytes
     * @param ranges MODE E ranges text, or null
     */
    public void restart(long offset, String ranges) {
        restartOffset = offset;
        restartRanges = ranges;
    }

    /** Forgets REST (RFC 959 section 4.1.3: REST applies to the immediately following command). */
    public void clearRestart() {
        restartOffset = 0;
        restartRanges = null;
    }

    /** @param bytes the size given by ALLO, for the next STOR/APPE/ESTO (0..) */
    public void allocation(long bytes) {
        allocationBytes = bytes;
    }

    /**
     * Takes ALLO's size for the store command that consumes it: ALLO applies to the next
     * STOR/APPE/ESTO only (RFC 959 section 4.1.3; globus remembers it for the next STOR).
     *
     * @return the bytes ALLO announced, or -1 if there was no ALLO since the last store
     */
    public long takeAllocation() {
        long bytes = allocationBytes;
        allocationBytes = -1;
        return bytes;
    }

    /** @return the virtual path given by RNFR, or null */
    public String renameFrom() {
        return renameFrom;
    }

    /** @param value the virtual path from RNFR, or null to clear */
    public void renameFrom(String value) {
        renameFrom = value;
    }

    /** @return the number of parallel data connections for sending in MODE E (OPTS RETR Parallelism) */
    public int parallelism() {
        return parallelism;
    }

    /** @param value number of parallel connections, 1..64 */
    public void parallelism(int value) {
        parallelism = value;
    }

    /** @return TCP buffer size requested by SBUF in bytes, 0 for the system default */
    public int bufferSizeBytes() {
        return bufferSizeBytes;
    }

    /** @param value TCP buffer size in bytes, for sending and receiving (SBUF) */
    public void bufferSizeBytes(int value) {
        bufferSizeBytes = value;
        sendBufferBytes = value;
        receiveBufferBytes = value;
    }

    /** @return SO_SNDBUF for later data connections in bytes, 0 for the system default */
    public int sendBufferBytes() {
        return sendBufferBytes;
    }

    /** @param value SO_SNDBUF in bytes (SITE STORBUFSIZE and its aliases), 0 for the default */
    public void sendBufferBytes(int value) {
        sendBufferBytes = value;
    }

    /** @return SO_RCVBUF for later data connections in bytes, 0 for the system default */
    public int receiveBufferBytes() {
        return receiveBufferBytes;
    }

    /** @param value SO_RCVBUF in bytes (SITE RETRBUFSIZE and its aliases), 0 for the default */
    public void receiveBufferBytes(int value) {
        receiveBufferBytes = value;
    }

    /** @return seconds between 112 perf markers while sending (OPTS RETR markers=N;), 0 = none */
    public int sendMarkerSeconds() {
        return sendMarkerSeconds;
    }

    /** @param value seconds between perf markers while sending, 0 for none */
    public void sendMarkerSeconds(int value) {
        sendMarkerSeconds = value;
    }

    /**
     * @return the period of 112 perf markers while receiving in MODE E set by {@code TREV PERF n}
     *     (zero = none), or null for the server's configured interval
     */
    public Duration perfMarkerInterval() {
        return perfMarkerInterval;
    }

    /** @param value the perf marker period while receiving (zero = none), or null for the default */
    public void perfMarkerInterval(Duration value) {
        perfMarkerInterval = value;
    }

    /**
     * @return the period of 111 restart markers while receiving in MODE E set by
     *     {@code TREV RESTART n} (zero = none), or null for the server's configured interval
     */
    public Duration restartMarkerInterval() {
        return restartMarkerInterval;
    }

    /** @param value the restart marker period (zero = none), or null for the default */
    public void restartMarkerInterval(Duration value) {
        restartMarkerInterval = value;
    }

    /** @return the algorithm of the checksum SCKS announced for the next STOR, or null */
    public String expectedChecksumAlgorithm() {
        return expectedChecksumAlgorithm;
    }

    /** @return the checksum (lowercase hex) SCKS announced for the next STOR, or null */
    public String expectedChecksum() {
        return expectedChecksum;
    }

    /**
     * @param algorithm canonical algorithm name, or null to clear
     * @param value expected lowercase hex checksum, or null to clear
     */
    public void expectedChecksum(String algorithm, String value) {
        expectedChecksumAlgorithm = algorithm;
        expectedChecksum = value;
    }

    /** @return the number of failed PASS attempts so far in this session */
    public int failedLogins() {
        return failedLogins;
    }

    /** Counts one more failed PASS attempt. */
    public void loginFailed() {
        failedLogins++;
    }

    /** @return the argument of the last SITE CLIENTINFO, or null */
    public String clientInfo() {
        return clientInfo;
    }

    /** @param value the SITE CLIENTINFO argument */
    public void clientInfo(String value) {
        clientInfo = value;
    }

    /** @return how the next transfer's data connections are made, or null before PASV/PORT */
    public DataEndpoint dataEndpoint() {
        return dataEndpoint;
    }

    /**
     * Sets the data endpoint, closing a previous passive listener and the cached MODE E
     * connections (a new PASV/PORT destroys the cached data channels, GFD.020 "Extended Block Mode", data connection reuse).
     *
     * @param value the new endpoint, or null to clear
     */
    public void dataEndpoint(DataEndpoint value) {
        DataEndpoint previous = dataEndpoint;
        dataEndpoint = value;
        stripedTargets = null; // SPOR addresses go with the endpoint they came with
        if (previous != value) {
            dataCache.clear();
        }
        if (previous instanceof DataEndpoint.Passive passive && previous != value) {
            closeQuietly(passive.listener());
        }
    }

    /**
     * @return the receiver addresses of the last SPOR (GFD.020 "SPOR"), or null when the data
     *     endpoint was set otherwise
     */
    public List<InetSocketAddress> stripedTargets() {
        return stripedTargets;
    }

    /**
     * Sets the SPOR addresses; call after {@link #dataEndpoint(DataEndpoint)}, which clears them.
     *
     * @param value the addresses, in SPOR order
     */
    public void stripedTargets(List<InetSocketAddress> value) {
        stripedTargets = value == null ? null : List.copyOf(value);
    }

    /**
     * @return the block size of the striped layout from {@code OPTS RETR BlockSize=n;} in bytes,
     *     0 when not set (the server default applies)
     */
    public int stripeBlockSizeBytes() {
        return stripeBlockSizeBytes;
    }

    /** @param value the striped layout's block size in bytes, 0 for the default */
    public void stripeBlockSizeBytes(int value) {
        stripeBlockSizeBytes = value;
    }

    /**
     * @return the MODE E data connections kept open after the last transfer (GFD.020 connection
     *     reuse); cleared whenever the data endpoint changes
     */
    public ModeECache dataCache() {
        return dataCache;
    }

    /** @return the running transfer's future, or null when idle */
    public CompletableFuture<?> activeTransfer() {
        return activeTransfer;
    }

    /** @param value the running transfer, or null when it ended */
    public void activeTransfer(CompletableFuture<?> value) {
        activeTransfer = value;
    }

    /**
     * Cancels the running transfer, if any (ABOR or control channel loss). Safe from any thread.
     *
     * @return true if a transfer was running
     */
    public boolean abortTransfer() {
        CompletableFuture<?> transfer = activeTransfer;
        if (transfer == null) {
            return false;
        }
        transfer.cancel(true);
        return true;
    }

    /** @return true once the control channel is gone */
    public boolean closed() {
        return closed;
    }

    /** Marks the session closed, aborts the transfer and releases the data endpoint. */
    public void close() {
        closed = true;
        abortTransfer();
        dataCache.clear();
        StorageStage stage = storageStage;
        if (stage != null) {
            stage.stop();
        }
    }

    /**
     * @return what RETR/STOR/APPE read and write instead of the named file (SITE SETDISKSTACK), or
     *     null for the file itself
     */
    public StorageStage storageStage() {
        return storageStage;
    }

    /** @param value the stage for the following transfers, or null for plain files */
    public void storageStage(StorageStage value) {
        StorageStage old = storageStage;
        storageStage = value;
        if (old != null && old != value) {
            old.stop();
        }
    }

    private static void closeQuietly(PassiveListener listener) {
        try {
            listener.close();
        } catch (RuntimeException e) {
            // PassiveListener.close never throws by contract; an unimplemented one may
        }
    }
}
