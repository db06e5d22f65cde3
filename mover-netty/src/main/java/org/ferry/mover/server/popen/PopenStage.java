package org.ferry.mover.server.popen;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.AtomicReference;
import org.ferry.mover.data.DataSink;
import org.ferry.mover.data.DataSource;
import org.ferry.mover.server.dtp.DtpException;
import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.ControlSession;
import org.ferry.mover.server.pi.FtpException;
import org.ferry.mover.server.pi.StorageStage;

/**
 * An allow-listed program as a session's storage stage (the Popen driver on the disk stack, seed
 * 003): RETR sends what the program writes to its standard output, STOR and APPE give the received
 * bytes to its standard input; the path named in the command is ignored, as globus-gridftp-server
 * ignores it. The bytes wait in a spool file on the server's disk: on RETR the program runs to its
 * end first and its output goes out only if it exited with status 0, so a program that fails
 * mid-way never delivers a truncated stream that a receiver could take for a whole file; on STOR
 * every byte (MODE E blocks in any order, any parallelism) is in the spool before the program starts
 * reading it, and 226 comes only after it exited with status 0. The cost: the transfer takes the
 * program's run time plus the data's, and the spool needs room for the data. A restart (REST) is
 * refused: a program's output is made anew each time.
 */
public final class PopenStage implements StorageStage {

    private final PopenCommand command;
    private final PopenPolicy policy;
    private final AtomicReference<ProgramRun> running = new AtomicReference<>();

    /**
     * @param command the approved program
     * @param policy timeout, spool directory and limit
     */
    public PopenStage(PopenCommand command, PopenPolicy policy) {
        this.command = command;
        this.policy = policy;
    }

    /** @return the program and its arguments */
    public PopenCommand command() {
        return command;
    }

    @Override
    public void send(CommandContext ctx, String argument) throws FtpException, IOException {
        refuseRestart(ctx.session());
        ctx.transfers().requireEndpoint(true);
        Path spool = newSpool();
        try {
            run(ProgramRun.toSpool(command, ctx.config().root(), policy, spool));
            try (FileChannel channel = FileChannel.open(spool, StandardOpenOption.READ)) {
                ctx.transfers().send(DataSource.ofWholeFile(channel));
            }
        } finally {
            Files.deleteIfExists(spool);
        }
    }

    @Override
    public void receive(CommandContext ctx, String argument) throws FtpException, IOException {
        ControlSession session = ctx.session();
        refuseRestart(session);
        ctx.transfers().requireEndpoint(false);
        long announced = session.takeAllocation();
        if (announced > policy.spoolLimitBytes()) {
            throw new FtpException(
                    552,
                    "ALLO " + announced + " is more than this server's popen spool limit of " + policy.spoolLimitBytes()
                            + " bytes.");
        }
        Path spool = newSpool();
        try {
            try (FileChannel channel = FileChannel.open(spool, StandardOpenOption.WRITE)) {
                ctx.transfers()
                        .receive(
                                limited(DataSink.toFile(channel, 0)),
                                () -> run(ProgramRun.fromSpool(
                                        command, ctx.config().root(), policy, spool)));
            }
        } finally {
            Files.deleteIfExists(spool);
        }
    }

    /** Runs the program to its end, stoppable through {@link #stop} meanwhile. */
    private void run(ProgramRun run) throws FtpException {
        running.set(run);
        try {
            run.await();
        } finally {
            running.compareAndSet(run, null);
        }
    }

    /** Refuses a sink write that reaches past the spool limit (552), so a client cannot fill the disk. */
    private DataSink limited(DataSink sink) {
        long limit = policy.spoolLimitBytes();
        return (ByteBuffer data, long offset) -> {
            if (offset + data.remaining() > limit) {
                throw new DtpException(
                        552, "Transfer aborted: more than this server's popen spool limit of " + limit + " bytes.");
            }
            sink.write(data, offset);
        };
    }

    private Path newSpool() throws IOException {
        // createTempFile makes it rw------- on POSIX file systems
        return Files.createTempFile(policy.spoolDirectory(), "ferry-popen-", ".spool");
    }

    private static void refuseRestart(ControlSession session) throws FtpException {
        if (session.restartOffset() > 0 || session.restartRanges() != null) {
            session.clearRestart();
            throw new FtpException(504, "REST is not supported with a popen disk stack: the program runs anew.");
        }
    }

    @Override
    public void stop() {
        ProgramRun run = running.get();
        if (run != null) {
            run.stop();
        }
    }

    @Override
    public String toString() {
        return "popen " + command;
    }
}
