package org.ferry.mover.server.command;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.ferry.mover.data.DataSink;
import org.ferry.mover.protocol.ByteRange;
import org.ferry.mover.protocol.FtpReply;
import org.ferry.mover.server.dtp.StripedDtp;
import org.ferry.mover.server.dtp.StripedPassiveListener;
import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.CommandHandler;
import org.ferry.mover.server.pi.ControlSession;
import org.ferry.mover.server.pi.FtpException;
import org.ferry.mover.server.pi.StorageStage;
import org.ferry.mover.server.pi.TransferMode;
import org.ferry.mover.storage.FileIdentity;

/**
 * STOR path (RFC 959 section 4.1.3): receives a file, written in place like globus does (a failed
 * upload leaves the partial file, resumable with REST). Stream mode: truncated to the REST offset
 * (0 without REST) and written from there. MODE E (needs PASV/EPSV): blocks are written at their
 * offsets; without REST the file is truncated first, with REST ranges it is kept. 150, 111/112
 * markers in MODE E, 226; 550/552/553 on storage failures. After SCKS the stored file's checksum
 * is compared before 226: a mismatch answers 550 with the computed and expected checksums. After
 * ALLO, 552 before 150 (file untouched) when the file system lacks the announced size.
 *
 * <p>A STOR from the first byte (no REST) computes the server's in-flight checksums ({@link
 * org.ferry.mover.server.pi.GridFtpServerConfig#inflightChecksums}, and the SCKS algorithm) while the
 * bytes arrive ({@link InflightChecksums}); when they came in order, SCKS is checked against them and
 * they are kept with the file's identity ({@link ChecksumCache}) before 226, so that the CKSM a
 * client sends next (globus-url-copy {@code -verify-checksum}) does not read the file again.
 */
public final class StorHandler implements CommandHandler {

    private final StripedDtp dtp;
    private final ChecksumCache checksums;

    /**
     * @param dtp the server's DTPs: STOR goes striped after SPAS, or PASV on a head node
     * @param checksums where the checksums computed in flight are kept for CKSM
     */
    StorHandler(StripedDtp dtp, ChecksumCache checksums) {
        this.dtp = dtp;
        this.checksums = checksums;
    }

    @Override
    public String verb() {
        return "STOR";
    }

    @Override
    public boolean movesData() {
        return true;
    }

    /**
     * On the event loop when the file comes over this session's own data channels in the clear
     * (DCAU N) and no SCKS checksum must be computed before 226: the start is an open and a write.
     */
    @Override
    public boolean runsOnEventLoop(ControlSession session) {
        return session.storageStage() == null
                && Stripes.listener(session) == null
                && session.expectedChecksumAlgorithm() == null
                && !session.dataProtection().dcau(session).authenticates();
    }

    @Override
    public CompletionStage<?> start(CommandContext ctx, String argument) throws FtpException, IOException {
        if (!runsOnEventLoop(ctx.session())) {
            handle(ctx, argument);
            return null;
        }
        Opened opened = open(ctx, argument);
        try {
            CompletableFuture<Long> received = ctx.transfers()
                    .receiveAsync(opened.sink(), opened.inflight() == null ? null : () -> keep(ctx, opened));
            return received.whenComplete((bytes, error) -> closeQuietly(opened.channel()));
        } catch (FtpException | RuntimeException e) {
            closeQuietly(opened.channel());
            throw e;
        }
    }

    @Override
    public void handle(CommandContext ctx, String argument) throws FtpException, IOException {
        StorageStage stage = ctx.session().storageStage();
        if (stage != null) {
            stage.receive(ctx, argument); // SITE SETDISKSTACK popen:...: the program's input, not a file
            return;
        }
        if (handleStriped(ctx, argument)) {
            return;
        }
        String algorithm = ctx.session().expectedChecksumAlgorithm();
        String expected = ctx.session().expectedChecksum();
        Opened opened = open(ctx, argument);
        try (FileChannel channel = opened.channel()) {
            ctx.transfers()
                    .receive(
                            opened.sink(),
                            algorithm == null && opened.inflight() == null
                                    ? null
                                    : () -> {
                                        Map<String, String> computed = keep(ctx, opened);
                                        if (algorithm != null) {
                                            verify(ctx, opened.path(), algorithm, expected, computed.get(algorithm));
                                        }
                                    });
        }
    }

    /**
     * The file a STOR writes, open, and the sink that writes it.
     *
     * @param inflight the checksums computed as the bytes arrive (the sink writes through them), or
     *     null when none are (a restart, or none configured)
     */
    private record Opened(String path, FileChannel channel, DataSink sink, InflightChecksums inflight) {}

    /**
     * Ends the in-flight checksums once every byte is written and, if they cover the whole file, keeps
     * them with its identity for CKSM. Before 226: a client's next CKSM finds them.
     *
     * @return the checksums by algorithm; empty when they do not cover the file (blocks out of order)
     */
    private Map<String, String> keep(CommandContext ctx, Opened opened) {
        if (opened.inflight() == null) {
            return Map.of();
        }
        try {
            Optional<FileIdentity> identity = ctx.storage().identity(opened.path());
            long size = identity.isPresent()
                    ? identity.get().sizeBytes()
                    : opened.channel().size();
            Map<String, String> values = opened.inflight().values(size);
            identity.ifPresent(id -> checksums.put(id, values));
            return values;
        } catch (IOException e) {
            return Map.of(); // CKSM and SCKS read the file, as without in-flight checksums
        }
    }

    /**
     * Checks the argument and the data endpoint, then creates or truncates the file (after ALLO,
     * only if it fits) and consumes the SCKS expectation, which applies to this STOR only.
     */
    private static Opened open(CommandContext ctx, String argument) throws FtpException, IOException {
        if (argument.isEmpty()) {
            throw new FtpException(501, "Syntax error in parameters or arguments.");
        }
        String path = ctx.resolve(argument);
        boolean modeE = ctx.session().mode() == TransferMode.EXTENDED_BLOCK;
        long offset = ctx.session().restartOffset();
        String ranges = ctx.session().restartRanges();
        if (ranges != null && !modeE) {
            offset = ByteRange.prefix(ByteRange.parseList(ranges)); // stream mode resumes after the prefix
        }
        boolean restarted = offset > 0 || ranges != null;
        ctx.transfers().requireEndpoint(false);
        Allocation.check(ctx, path, modeE ? 0 : offset); // before anything is truncated: 552 leaves the file as it was
        long truncateTo = modeE ? (restarted ? Long.MAX_VALUE : 0) : offset;
        String expectedAlgorithm = ctx.session().expectedChecksumAlgorithm();
        ctx.session().expectedChecksum(null, null); // SCKS applies to this STOR only
        FileChannel channel = ctx.storage().openForWrite(path, truncateTo);
        DataSink sink = DataSink.toFile(channel, modeE ? 0 : offset);
        Set<String> algorithms = new LinkedHashSet<>();
        if (!restarted) { // from the first byte: a digest of the whole file
            ctx.config().inflightChecksums().forEach(a -> algorithms.add(a.name()));
            if (!algorithms.isEmpty() && expectedAlgorithm != null) {
                algorithms.add(expectedAlgorithm);
            }
        }
        if (algorithms.isEmpty()) {
            return new Opened(path, channel, sink, null);
        }
        InflightChecksums inflight = new InflightChecksums(sink, algorithms);
        return new Opened(path, channel, inflight, inflight);
    }

    private static void closeQuietly(FileChannel channel) {
        try {
            channel.close();
        } catch (IOException e) {
            // positional writes went to the file as they came; close only releases the descriptor
        }
    }

    /**
     * SCKS: the stored file's checksum must match (GFD.047 "CKSM", INCORRECT_CHECKSUM).
     *
     * @param inflight the checksum computed while the file arrived, or null to read the file
     */
    private static void verify(CommandContext ctx, String path, String algorithm, String expected, String inflight)
            throws FtpException {
        String computed = inflight;
        if (computed == null) {
            try (FileChannel channel = ctx.storage().openForRead(path)) { // the write channel is not readable
                computed = Checksums.compute(algorithm, channel, 0, channel.size());
            } catch (IOException e) {
                throw new FtpException(451, "Local error in processing: cannot compute checksum: " + e.getMessage());
            }
        }
        if (!computed.equals(expected)) {
            throw new FtpException(FtpReply.multiline(
                    550,
                    "Checksum verification failed : ",
                    List.of("GridFTP-Computed-Checksum: " + computed, "GridFTP-Expected-Checksum: " + expected),
                    "End."));
        }
    }

    /**
     * Striped STOR (GFD.020 "SPAS"; SC'05 paper section 5): every stripe's DTP writes its MODE E blocks
     * at their offsets into the same file, which the PI truncates first (kept as is after REST).
     *
     * @return false when the data endpoint is not on the DTPs (the plain path runs)
     */
    private boolean handleStriped(CommandContext ctx, String argument) throws FtpException, IOException {
        ControlSession session = ctx.session();
        StripedPassiveListener listener = Stripes.listener(session);
        if (listener == null) {
            return false;
        }
        if (argument.isEmpty()) {
            throw new FtpException(501, "Syntax error in parameters or arguments.");
        }
        Stripes.requireStripable(ctx);
        String path = ctx.resolve(argument);
        boolean restarted = session.restartOffset() > 0 || session.restartRanges() != null;
        Allocation.check(ctx, path, 0);
        try (FileChannel created = ctx.storage().openForWrite(path, restarted ? Long.MAX_VALUE : 0)) {
            // opened only to create or truncate it before any stripe writes
        }
        ctx.transfers().receiveStriped(dtp, listener, path, 0);
        return true;
    }
}
