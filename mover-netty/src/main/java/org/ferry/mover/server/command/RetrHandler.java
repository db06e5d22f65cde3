package org.ferry.mover.server.command;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.FileChannel;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.BiConsumer;
import org.ferry.mover.data.DataChannels;
import org.ferry.mover.data.DataEndpoint;
import org.ferry.mover.data.DataSource;
import org.ferry.mover.protocol.ByteRange;
import org.ferry.mover.server.dtp.StripeSendRequest;
import org.ferry.mover.server.dtp.StripedDtp;
import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.CommandHandler;
import org.ferry.mover.server.pi.ControlSession;
import org.ferry.mover.server.pi.FtpException;
import org.ferry.mover.server.pi.StorageStage;
import org.ferry.mover.server.pi.TransferMode;
import org.ferry.mover.storage.FileStat;
import org.ferry.mover.storage.StorageInterface;

/**
 * RETR path (RFC 959 section 4.1.3): sends a file, in stream mode or MODE E with the session's
 * parallelism (MODE E needs PORT/EPRT). After {@code REST n} stream mode sends from offset n; after
 * {@code REST a-b,c-d} MODE E sends only the ranges not listed, at their file offsets
 * (GFD.020 "Restarting"), stream mode the part after a gap-free prefix (504 otherwise). 150 then 226; 550 for a missing file or a directory, 554
 * for a restart offset past the end (RFC 3659 section 5.5).
 */
public final class RetrHandler implements CommandHandler {

    private final StripedDtp dtp;

    /** @param dtp the server's DTPs: RETR goes striped after SPOR, and on a head node after PORT in MODE E */
    public RetrHandler(StripedDtp dtp) {
        this.dtp = dtp;
    }

    @Override
    public String verb() {
        return "RETR";
    }

    @Override
    public boolean movesData() {
        return true;
    }

    @Override
    public boolean sendsFile() {
        return true;
    }

    /**
     * On the event loop when the file goes over this session's own data channels in the clear
     * (DCAU N): not striped, so the start is a stat, an open and a write.
     */
    @Override
    public boolean runsOnEventLoop(ControlSession session) {
        return session.storageStage() == null
                && stripedTargets(session) == null
                && !session.dataProtection().dcau(session).authenticates();
    }

    @Override
    public CompletionStage<?> start(CommandContext ctx, String argument) throws FtpException, IOException {
        if (!runsOnEventLoop(ctx.session())) {
            handle(ctx, argument);
            return null;
        }
        StorageInterface.OpenFile file = open(ctx, argument);
        FileChannel channel = file.channel();
        try {
            CompletableFuture<Long> sent = ctx.transfers().sendAsync(source(ctx, argument, file));
            return sent.whenComplete(new CloseWhenDone(channel));
        } catch (FtpException | RuntimeException e) {
            closeQuietly(channel);
            throw e;
        }
    }

    @Override
    public void handle(CommandContext ctx, String argument) throws FtpException, IOException {
        StorageStage stage = ctx.session().storageStage();
        if (stage != null) {
            stage.send(ctx, argument); // SITE SETDISKSTACK popen:...: the program's output, not a file
            return;
        }
        List<InetSocketAddress> targets = stripedTargets(ctx.session());
        if (targets != null) {
            sendStriped(ctx, argument, targets);
            return;
        }
        StorageInterface.OpenFile file = open(ctx, argument);
        try (FileChannel channel = file.channel()) {
            ctx.transfers().send(source(ctx, argument, file));
        }
    }

    /** @return the stripes' addresses when RETR goes striped, else null */
    private List<InetSocketAddress> stripedTargets(ControlSession session) {
        List<InetSocketAddress> targets = session.stripedTargets();
        boolean modeE = session.mode() == TransferMode.EXTENDED_BLOCK;
        if (targets == null && dtp.remote() && modeE && session.dataEndpoint() instanceof DataEndpoint.Active a) {
            targets = List.of(a.address()); // a head node moves data through its data nodes only
        }
        return targets;
    }

    /**
     * Checks the argument and the data endpoint, then opens the file and learns its size with one
     * stat ({@link StorageInterface#openForReading}).
     */
    private static StorageInterface.OpenFile open(CommandContext ctx, String argument)
            throws FtpException, IOException {
        if (argument.isEmpty()) {
            throw new FtpException(501, "Syntax error in parameters or arguments.");
        }
        String path = ctx.resolve(argument);
        ControlSession session = ctx.session();
        String ranges = session.restartRanges();
        if (ranges != null && session.mode() != TransferMode.EXTENDED_BLOCK) {
            if (ByteRange.merge(ByteRange.parseList(ranges)).size() > 1) {
                throw new FtpException(504, "Restart ranges with gaps need MODE E.");
            }
        }
        ctx.transfers().requireEndpoint(true);
        return ctx.storage().openForReading(path);
    }

    /**
     * @return what to send of the open file: from the REST offset (stream mode), or the ranges the
     *     receiver lacks (MODE E after REST ranges, GFD.020 "Restarting")
     * @throws FtpException 554 for a restart offset past the end
     */
    private static DataSource source(CommandContext ctx, String argument, StorageInterface.OpenFile file)
            throws FtpException, IOException {
        ControlSession session = ctx.session();
        boolean modeE = session.mode() == TransferMode.EXTENDED_BLOCK;
        long offset = session.restartOffset();
        String ranges = session.restartRanges();
        List<ByteRange> done = ranges == null ? List.of() : ByteRange.parseList(ranges);
        if (ranges != null && !modeE) {
            offset = ByteRange.prefix(done);
        }
        long size = file.sizeBytes();
        FileChannel channel = file.channel();
        if (offset > size) {
            throw new FtpException(
                    554, "Restart offset " + offset + " is past the end of " + ctx.resolve(argument) + ".");
        }
        if (ranges != null && modeE) {
            // MODE E restart: send only what the receiver lacks, at file offsets (section 2.6)
            return DataSource.ofFileRanges(channel, size, ByteRange.missing(done, size));
        }
        return DataSource.ofFile(channel, offset, size - offset);
    }

    /**
     * Closes the file once its transfer ended. A record rather than a lambda: one is made per file,
     * and the C1-only JIT allocates a capturing lambda through a method handle (a runtime call).
     */
    private record CloseWhenDone(FileChannel channel) implements BiConsumer<Long, Throwable> {
        @Override
        public void accept(Long bytes, Throwable error) {
            closeQuietly(channel);
        }
    }

    private static void closeQuietly(FileChannel channel) {
        try {
            channel.close();
        } catch (IOException e) {
            // a read-only descriptor: nothing was buffered that a failed close could lose
        }
    }

    /**
     * Striped RETR (GFD.020 "SPOR", {@code StripeLayout=Blocked}): the file from the REST offset in
     * blocks of {@code OPTS RETR BlockSize=n;} spread over the stripes, each with the session's
     * parallelism. Needs MODE E and clear data channels; a restart with gaps gets 504.
     */
    private void sendStriped(CommandContext ctx, String argument, List<InetSocketAddress> targets)
            throws FtpException, IOException {
        ControlSession session = ctx.session();
        if (argument.isEmpty()) {
            throw new FtpException(501, "Syntax error in parameters or arguments.");
        }
        Stripes.requireStripable(ctx);
        String path = ctx.resolve(argument);
        FileStat stat = ctx.storage().stat(path);
        if (!stat.isFile()) {
            throw new FtpException(550, path + ": Path is a directory.");
        }
        long offset = session.restartOffset();
        String ranges = session.restartRanges();
        if (ranges != null) {
            List<ByteRange> done = ByteRange.parseList(ranges);
            if (ByteRange.merge(done).size() > 1) {
                // the stripes cut the rest of the file from one restart offset on
                throw new FtpException(504, "Restart ranges with gaps are not supported in striped transfers.");
            }
            offset = ByteRange.prefix(done);
        }
        long size = stat.sizeBytes();
        if (offset > size) {
            throw new FtpException(554, "Restart offset " + offset + " is past the end of " + path + ".");
        }
        int blockSize = session.stripeBlockSizeBytes() > 0
                ? session.stripeBlockSizeBytes()
                : DataChannels.DEFAULT_BLOCK_SIZE_BYTES;
        List<StripeSendRequest> requests =
                dtp.plan(path, offset, size - offset, blockSize, targets, session.parallelism());
        ctx.transfers().sendStriped(dtp, requests);
    }
}
