package org.ferry.mover.server.popen;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.ferry.mover.protocol.FtpReply;
import org.ferry.mover.server.pi.FtpException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run of an allow-listed program (the Popen driver's child, globus_xio_popen_driver.c): its argv
 * as an argv (no shell), an empty environment (the driver's default without {@code pass_env}), the
 * served root as its working directory. Its standard output goes to a spool file ({@link
 * #toSpool}) or is discarded ({@link #fromSpool}); its standard input is a spool file or empty; the
 * first {@value #STDERR_KEPT_BYTES} bytes of its standard error are kept for the reply, the rest
 * read and dropped, so a program that floods either stream never blocks on it. It is stopped
 * (SIGTERM, after {@value #GRACE_SECONDS} s SIGKILL, its descendants too) when it outlives the
 * policy's timeout, writes more than the spool limit, or {@link #stop} is called (the control
 * channel closed).
 */
public final class ProgramRun {

    /** Bytes of standard error kept for the failure reply. */
    public static final int STDERR_KEPT_BYTES = 4096;

    /** Seconds between SIGTERM and SIGKILL. */
    public static final int GRACE_SECONDS = 5;

    private static final Logger LOG = LoggerFactory.getLogger(ProgramRun.class);

    private final PopenCommand command;
    private final PopenPolicy policy;
    private final Process process;
    private final Thread stderrReader;
    private final ByteArrayOutputStream stderr = new ByteArrayOutputStream();
    private final AtomicBoolean stopped = new AtomicBoolean();
    private volatile boolean overLimit;
    private volatile Thread stdoutWriter;

    private ProgramRun(PopenCommand command, PopenPolicy policy, Process process) {
        this.command = command;
        this.policy = policy;
        this.process = process;
        this.stderrReader = pump(process.getErrorStream(), stderr, STDERR_KEPT_BYTES, "stderr");
    }

    /**
     * Starts {@code command} with its standard output going to {@code spool}, truncated first, at
     * most the policy's spool limit.
     *
     * @param command the approved program
     * @param workingDirectory its working directory
     * @param policy timeout and spool limit
     * @param spool the file its output goes to
     * @return the running program
     * @throws FtpException 451 if it cannot be started
     */
    public static ProgramRun toSpool(PopenCommand command, Path workingDirectory, PopenPolicy policy, Path spool)
            throws FtpException {
        ProcessBuilder builder = builder(command, workingDirectory)
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
        ProgramRun run = new ProgramRun(command, policy, start(builder, command));
        run.pumpStdoutTo(spool);
        return run;
    }

    /**
     * Starts {@code command} reading {@code input} as its standard input; its output is discarded.
     *
     * @param command the approved program
     * @param workingDirectory its working directory
     * @param policy the timeout
     * @param input the file it reads
     * @return the running program
     * @throws FtpException 451 if it cannot be started
     */
    public static ProgramRun fromSpool(PopenCommand command, Path workingDirectory, PopenPolicy policy, Path input)
            throws FtpException {
        ProcessBuilder builder = builder(command, workingDirectory)
                .redirectInput(ProcessBuilder.Redirect.from(input.toFile()))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD);
        return new ProgramRun(command, policy, start(builder, command));
    }

    private static ProcessBuilder builder(PopenCommand command, Path workingDirectory) {
        ProcessBuilder builder = new ProcessBuilder(command.argv()).directory(workingDirectory.toFile());
        builder.environment().clear(); // the Popen driver's default: execve with an empty environment
        return builder;
    }

    private static Process start(ProcessBuilder builder, PopenCommand command) throws FtpException {
        try {
            Process process = builder.start();
            LOG.info("popen: started {} (pid {})", command, process.pid());
            return process;
        } catch (IOException e) {
            throw new FtpException(451, "Cannot run program " + command.program() + ": " + e.getMessage());
        }
    }

    private void pumpStdoutTo(Path spool) {
        Thread thread = new Thread(
                () -> {
                    try (InputStream in = process.getInputStream();
                            OutputStream out = Files.newOutputStream(
                                    spool, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
                        byte[] buffer = new byte[64 * 1024];
                        long total = 0;
                        int n;
                        while ((n = in.read(buffer)) >= 0) {
                            total += n;
                            if (total > policy.spoolLimitBytes()) {
                                overLimit = true;
                                stop();
                                return;
                            }
                            out.write(buffer, 0, n);
                        }
                    } catch (IOException e) {
                        LOG.debug("popen: output of {} stopped: {}", command, e.toString());
                        stop();
                    }
                },
                "popen-stdout-" + process.pid());
        thread.setDaemon(true);
        thread.start();
        stdoutWriter = thread;
    }

    /** Reads {@code in} to its end, keeping the first {@code keep} bytes in {@code into}. */
    private static Thread pump(InputStream in, ByteArrayOutputStream into, int keep, String what) {
        Thread thread = new Thread(
                () -> {
                    byte[] buffer = new byte[8192];
                    int n;
                    try (in) {
                        while ((n = in.read(buffer)) >= 0) {
                            synchronized (into) {
                                int room = keep - into.size();
                                if (room > 0) {
                                    into.write(buffer, 0, Math.min(room, n));
                                }
                            }
                        }
                    } catch (IOException e) {
                        // the program ended or was stopped: what was read is kept
                    }
                },
                "popen-" + what);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    /**
     * Waits for the program to end within the policy's timeout (stopping it otherwise) and checks
     * how it ended.
     *
     * @throws FtpException 451 when it exited with a status other than 0 (its standard error in the
     *     reply) or was stopped by the timeout or by {@link #stop}; 552 when it wrote more than the
     *     spool limit
     */
    public void await() throws FtpException {
        boolean ended;
        try {
            ended = process.waitFor(policy.timeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stop();
            throw new FtpException(451, "Program " + command.program() + " stopped: interrupted.");
        }
        boolean timedOut = !ended && !stopped.get();
        if (!ended) {
            stop();
        }
        int status = waitQuietly();
        // a descendant that outlived the program may hold its streams open: wait a while, not forever
        joinQuietly(stderrReader);
        boolean outputComplete = joinQuietly(stdoutWriter);
        if (overLimit) {
            throw new FtpException(
                    552,
                    "Program " + command.program() + " stopped: its output passed the spool limit of "
                            + policy.spoolLimitBytes() + " bytes.");
        }
        if (timedOut) {
            throw new FtpException(
                    451,
                    "Program " + command.program() + " stopped: still running after "
                            + policy.timeout().toSeconds() + " s.");
        }
        if (stopped.get()) {
            throw new FtpException(451, "Program " + command.program() + " stopped.");
        }
        if (status != 0) {
            throw new FtpException(failure(status));
        }
        if (!outputComplete) {
            throw new FtpException(
                    451,
                    "Program " + command.program() + " exited but something it started still"
                            + " holds its output open.");
        }
        LOG.info("popen: {} exited with status 0", command.program());
    }

    private FtpReply failure(int status) {
        List<String> body = new ArrayList<>();
        String text;
        synchronized (stderr) {
            text = stderr.toString(StandardCharsets.UTF_8);
        }
        for (String line : text.split("\n")) {
            if (!line.isBlank()) {
                body.add(" " + line.stripTrailing());
            }
        }
        LOG.info("popen: {} exited with status {}", command.program(), status);
        return FtpReply.multiline(
                451, "Program " + command.program() + " exited with status " + status + ":", body, "End.");
    }

    /** Stops the program (SIGTERM, SIGKILL after the grace period) and its descendants. Idempotent. */
    public void stop() {
        if (!stopped.compareAndSet(false, true)) {
            return;
        }
        List<ProcessHandle> descendants = process.descendants().toList();
        process.destroy();
        descendants.forEach(ProcessHandle::destroy);
        process.onExit().orTimeout(GRACE_SECONDS, TimeUnit.SECONDS).whenComplete((p, e) -> {
            if (e != null) {
                process.destroyForcibly();
                descendants.forEach(ProcessHandle::destroyForcibly);
            }
        });
    }

    private int waitQuietly() {
        try {
            return process.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            return -1;
        }
    }

    /** @return true if {@code thread} (if any) ended within the grace period */
    private static boolean joinQuietly(Thread thread) {
        if (thread == null) {
            return true;
        }
        try {
            thread.join(TimeUnit.SECONDS.toMillis(GRACE_SECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return !thread.isAlive();
    }
}
