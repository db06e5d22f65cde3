package org.ferry.mover.server.command;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import org.ferry.mover.data.DataChannels;
import org.ferry.mover.data.DataEndpoint;
import org.ferry.mover.protocol.ByteRange;
import org.ferry.mover.server.dtp.StripeSendRequest;
import org.ferry.mover.server.dtp.StripedDtp;
import org.ferry.mover.server.dtp.StripedTransfers;
import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.ControlSession;
import org.ferry.mover.server.pi.FtpException;
import org.ferry.mover.server.pi.TransferMode;
import org.ferry.mover.storage.FileStat;

/**
 * RETR path when the PI drives its DTPs as stripes (GFD.020 "SPOR", {@code StripeLayout=Blocked};
 * SC'05 paper section 5): after SPOR, and on a head node also after a plain PORT in MODE E, the
 * file is sent from the REST offset in blocks of {@code OPTS RETR BlockSize=n;} (default
 * {@value DataChannels#DEFAULT_BLOCK_SIZE_BYTES} bytes) spread over the stripes, each stripe with
 * the session's parallelism. Otherwise it is the ordinary {@link RetrHandler}. Striped RETR needs
 * MODE E (503 otherwise); 550 for a missing file or a directory, 554 for a restart offset past
 * the end.
 */
public final class StripedRetrHandler extends StripedFallbackHandler {

    /** @param dtp the server's DTPs */
    public StripedRetrHandler(StripedDtp dtp) {
        super(dtp, new RetrHandler());
    }

    @Override
    public void handle(CommandContext ctx, String argument) throws FtpException, IOException {
        ControlSession session = ctx.session();
        List<InetSocketAddress> targets = session.stripedTargets();
        boolean modeE = session.mode() == TransferMode.EXTENDED_BLOCK;
        if (targets == null && dtp.remote() && modeE && session.dataEndpoint() instanceof DataEndpoint.Active a) {
            targets = List.of(a.address()); // a head node moves data through its data nodes only
        }
        if (targets == null) {
            plain.handle(ctx, argument);
            return;
        }
        if (argument.isEmpty()) {
            throw new FtpException(501, "Syntax error in parameters or arguments.");
        }
        requireStripable(ctx);
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
        StripedTransfers.send(ctx, dtp, requests);
    }
}
