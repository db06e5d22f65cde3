package org.ferry.mover.server.command;

import java.io.IOException;
import java.nio.channels.FileChannel;
import org.ferry.mover.data.DataSink;
import org.ferry.mover.server.dtp.StripedDtp;
import org.ferry.mover.server.dtp.StripedPassiveListener;
import org.ferry.mover.server.multicast.MulticastStage;
import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.CommandHandler;
import org.ferry.mover.server.pi.FtpException;
import org.ferry.mover.server.pi.StorageStage;
import org.ferry.mover.storage.FileStat;
import org.ferry.mover.storage.StorageException;

/**
 * APPE path (RFC 959 section 4.1.3): like STOR, but the received bytes go after the current end
 * of an existing file (globus turns it into {@code ESTO A <size>}: in MODE E every block offset is
 * shifted by the old size; GFD.020 "ERET"/"ESTO"). {@code 550 Path is a directory.};
 * after ALLO, 552 before 150 when the appended size does not fit.
 */
public final class AppeHandler implements CommandHandler {

    private final StripedDtp dtp;

    /** @param dtp the server's DTPs: APPE goes striped after SPAS, or PASV on a head node */
    public AppeHandler(StripedDtp dtp) {
        this.dtp = dtp;
    }

    @Override
    public String verb() {
        return "APPE";
    }

    @Override
    public boolean movesData() {
        return true;
    }

    @Override
    public void handle(CommandContext ctx, String argument) throws FtpException, IOException {
        StorageStage stage = ctx.session().storageStage();
        if (stage instanceof MulticastStage) {
            throw new FtpException(504, "APPE is not available with a multicast disk stack; use ESTO A offset.");
        }
        if (stage != null) {
            stage.receive(ctx, argument); // a program's input has no end to append to: as STOR
            return;
        }
        if (handleStriped(ctx, argument)) {
            return;
        }
        if (argument.isEmpty()) {
            throw new FtpException(501, "Syntax error in parameters or arguments.");
        }
        String path = ctx.resolve(argument);
        long size = appendOffset(ctx, path);
        ctx.transfers().requireEndpoint(false);
        Allocation.check(ctx, path, size);
        try (FileChannel channel = ctx.storage().openForWrite(path, Long.MAX_VALUE)) {
            ctx.transfers().receive(DataSink.toFile(channel, size));
        }
    }

    /**
     * @param path the virtual path to append to
     * @return where appended bytes go: the file's size, 0 if it does not exist
     * @throws FtpException {@code 550 Path is a directory.}
     * @throws StorageException when the path cannot be examined
     */
    static long appendOffset(CommandContext ctx, String path) throws FtpException, StorageException {
        try {
            FileStat stat = ctx.storage().stat(path);
            if (stat.isDirectory()) {
                throw new FtpException(550, "Path is a directory.");
            }
            return stat.sizeBytes();
        } catch (StorageException e) {
            if (e.reason() != StorageException.Reason.NOT_FOUND) {
                throw e;
            }
            return 0;
        }
    }

    /**
     * Striped APPE: a store at the file's current size, every stripe writing its blocks there plus
     * their offsets.
     *
     * @return false when the data endpoint is not on the DTPs (the plain path runs)
     */
    private boolean handleStriped(CommandContext ctx, String argument) throws FtpException, IOException {
        StripedPassiveListener listener = Stripes.listener(ctx.session());
        if (listener == null) {
            return false;
        }
        if (argument.isEmpty()) {
            throw new FtpException(501, "Syntax error in parameters or arguments.");
        }
        Stripes.requireStripable(ctx);
        String path = ctx.resolve(argument);
        long size = AppeHandler.appendOffset(ctx, path);
        Allocation.check(ctx, path, size);
        try (FileChannel created = ctx.storage().openForWrite(path, Long.MAX_VALUE)) {
            // opened only to create it if missing; the DTPs write
        }
        ctx.transfers().receiveStriped(dtp, listener, path, size);
        return true;
    }
}
