package org.ferry.mover.server.multicast;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.ferry.mover.data.DataSink;
import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.ControlSession;
import org.ferry.mover.server.pi.FtpException;
import org.ferry.mover.server.pi.StorageStage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code gridftp_multicast} disk stack of a session (see {@link MulticastTree}): a STOR or
 * {@code ESTO A offset} is written to the file here as usual and, while it is written, forwarded
 * (to the path each child's URL names, {@link MulticastTree#destinationPath}) to every child of the tree ({@link BranchForwarder}, one thread each, from this server's copy:
 * the source sends once). 226 comes only when the file is complete here and every child (and,
 * through it, its subtree) acknowledged every byte; a child that failed is retried from its
 * markers meanwhile. Otherwise {@code 451 Multicast: ...} names each destination that failed, with
 * how much of the file it acknowledged; the file here is complete all the same, and the client may
 * send the file again to that part of the tree. RETR and APPE are refused (504): the stack is for
 * writing, as the Globus driver is; {@code SITE SETDISKSTACK file} returns to plain files. REST is
 * refused (504): a restarted transfer is sent to the failed part of the tree as a tree of its own.
 */
public final class MulticastStage implements StorageStage {

    private static final Logger LOG = LoggerFactory.getLogger(MulticastStage.class);

    private final MulticastTree tree;
    private final MulticastPolicy policy;
    private final BranchSessions sessions;

    /**
     * @param tree the servers below this one
     * @param policy windows, retries and how to reach them
     */
    public MulticastStage(MulticastTree tree, MulticastPolicy policy) {
        this.tree = tree;
        this.policy = policy;
        this.sessions = new BranchSessions(policy);
    }

    /** @return the servers below this one */
    public MulticastTree tree() {
        return tree;
    }

    @Override
    public void send(CommandContext ctx, String argument) throws FtpException {
        throw new FtpException(504, "RETR is not available with a multicast disk stack (SITE SETDISKSTACK file).");
    }

    /** STOR: the file is created or truncated here and on every destination below. */
    @Override
    public void receive(CommandContext ctx, String argument) throws FtpException, IOException {
        receive(ctx, argument, 0, true);
    }

    /**
     * {@code ESTO A offset path}: the bytes go to {@code offset} on of the file here and below, which
     * is neither created afresh nor truncated (GFD.020 "ESTO").
     *
     * @param ctx the session
     * @param offset file offset of the transfer's first byte
     * @param argument the path
     * @throws FtpException the reply owed instead of 226
     * @throws IOException on a storage failure
     */
    public void receiveAt(CommandContext ctx, long offset, String argument) throws FtpException, IOException {
        receive(ctx, argument, offset, false);
    }

    private void receive(CommandContext ctx, String argument, long base, boolean store)
            throws FtpException, IOException {
        ControlSession session = ctx.session();
        if (session.restartOffset() > 0 || session.restartRanges() != null) {
            session.clearRestart();
            throw new FtpException(504, "REST is not supported with a multicast disk stack.");
        }
        if (argument.isEmpty()) {
            throw new FtpException(501, "Syntax error in parameters or arguments.");
        }
        String path = ctx.resolve(argument);
        ctx.transfers().requireEndpoint(false);
        ArrivedRanges arrived = new ArrivedRanges();
        try (FileChannel channel = ctx.storage().openForWrite(path, store ? 0 : Long.MAX_VALUE)) {
            DataSink file = DataSink.toFile(channel, base);
            DataSink sink = (data, offset) -> {
                int length = data.remaining();
                file.write(data, offset);
                arrived.add(offset, offset + length);
            };
            List<BranchForwarder> forwarders = new ArrayList<>();
            List<CompletableFuture<Void>> done = new ArrayList<>();
            for (MulticastTree.Branch branch : tree.branches()) {
                BranchForwarder forwarder = new BranchForwarder(
                        policy,
                        branch,
                        sessions,
                        () -> ctx.storage().openForRead(path),
                        MulticastTree.destinationPath(branch.server(), path),
                        base,
                        store,
                        arrived,
                        tree.parallelism());
                forwarders.add(forwarder);
                done.add(start(forwarder));
            }
            try {
                ctx.transfers().receive(sink, () -> {
                    arrived.complete();
                    awaitBranches(forwarders, done, arrived.prefix());
                });
            } catch (FtpException | RuntimeException e) {
                arrived.fail();
                throw e;
            }
        }
    }

    private static CompletableFuture<Void> start(BranchForwarder forwarder) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        Thread thread = new Thread(
                () -> {
                    try {
                        forwarder.run();
                        done.complete(null);
                    } catch (Throwable e) {
                        done.completeExceptionally(e);
                    }
                },
                "multicast-" + forwarder.destination());
        thread.setDaemon(true);
        thread.start();
        return done;
    }

    /** Waits for every branch; 451 naming the ones that failed. */
    private static void awaitBranches(List<BranchForwarder> forwarders, List<CompletableFuture<Void>> done, long bytes)
            throws FtpException {
        List<String> failed = new ArrayList<>();
        for (int i = 0; i < forwarders.size(); i++) {
            BranchForwarder forwarder = forwarders.get(i);
            try {
                done.get(i).get();
                LOG.debug(
                        "multicast: {} has all {} bytes ({} restarts)",
                        forwarder.destination(),
                        bytes,
                        forwarder.restarts());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new FtpException(451, "Multicast: interrupted while waiting for the destinations.");
            } catch (ExecutionException e) {
                String why = String.valueOf(e.getCause().getMessage()).replaceAll("[\\r\\n]+", " ");
                failed.add(forwarder.destination() + " has " + forwarder.acknowledgedBytes() + " of " + bytes
                        + " bytes after " + forwarder.restarts() + " restarts: " + why);
            }
        }
        if (!failed.isEmpty()) {
            throw new FtpException(451, "Multicast: " + String.join("; ", failed) + ".");
        }
    }

    @Override
    public void stop() {
        sessions.closeAll();
    }

    @Override
    public String toString() {
        return "multicast to " + tree.urls().size() + " servers";
    }
}
