package org.ferry.scheduler.execution;

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.ferry.api.domain.TransferredFile;
import org.ferry.mover.access.EndpointAccess;
import org.ferry.mover.client.GridFtpSession;
import org.ferry.mover.data.security.ProtectionLevel;
import org.ferry.mover.runner.FileTransfer;

/**
 * The in-memory state of one task being worked in this JVM: how to reach its endpoints (with the
 * owner's activated credentials, sealed), open sessions (so a cancel can close them and abort
 * transfers in flight), chunks still out, and counter deltas not yet written to the database.
 * Thread-safe: mover lanes, the planner and the flusher share it.
 */
public final class TaskExecution {

    private final UUID taskId;
    private final String ownerName;
    private final UUID sourceEndpointId;
    private final UUID destinationEndpointId;
    private final EndpointAccess source;
    private final EndpointAccess destination;
    private final boolean verifyChecksum;
    private final ProtectionLevel dataProtection;
    private volatile Instant deadline;
    private final Instant credentialsExpire;

    private final AtomicBoolean stopped = new AtomicBoolean();
    private final Set<GridFtpSession> sessions = ConcurrentHashMap.newKeySet();
    private final AtomicInteger chunksOutstanding = new AtomicInteger();

    private final AtomicLong bytesDelta = new AtomicLong();
    private final AtomicLong filesDelta = new AtomicLong();
    private final AtomicLong failedDelta = new AtomicLong();
    private final AtomicLong faultsDelta = new AtomicLong();
    private final ConcurrentLinkedQueue<TransferredFile> arrived = new ConcurrentLinkedQueue<>();

    private final AtomicLong bytesTotal = new AtomicLong();
    private final AtomicLong filesTotal = new AtomicLong();
    private volatile String niceStatus = "OK";

    // written only by TaskRecorder.flush, under this object's monitor
    long lastProgressMillis;
    long lastProgressBytes;
    long lastProgressFiles;
    String writtenNiceStatus = "OK";

    /**
     * What the execution works with.
     *
     * @param taskId the task
     * @param ownerName the task's owner (whose credentials the sessions use)
     * @param sourceEndpointId the source endpoint
     * @param destinationEndpointId the destination endpoint
     * @param source how to reach the source endpoint
     * @param destination how to reach the destination endpoint
     * @param verifyChecksum compare checksums after each file
     * @param dataProtection the least protection of every data channel ({@code encrypt_data}: P)
     * @param deadline the task's deadline or null
     * @param credentialsExpire when the first of the endpoints' credentials expires, or null when
     *     neither needs one
     */
    public record Setup(
            UUID taskId,
            String ownerName,
            UUID sourceEndpointId,
            UUID destinationEndpointId,
            EndpointAccess source,
            EndpointAccess destination,
            boolean verifyChecksum,
            ProtectionLevel dataProtection,
            Instant deadline,
            Instant credentialsExpire) {}

    /** @param setup what the execution works with */
    public TaskExecution(Setup setup) {
        this.taskId = setup.taskId();
        this.ownerName = setup.ownerName();
        this.sourceEndpointId = setup.sourceEndpointId();
        this.destinationEndpointId = setup.destinationEndpointId();
        this.source = setup.source();
        this.destination = setup.destination();
        this.verifyChecksum = setup.verifyChecksum();
        this.dataProtection = setup.dataProtection();
        this.deadline = setup.deadline();
        this.credentialsExpire = setup.credentialsExpire();
    }

    /** @return the task id */
    public UUID taskId() {
        return taskId;
    }

    /** @return the task's owner */
    public String ownerName() {
        return ownerName;
    }

    /**
     * @param endpointId an endpoint
     * @return true if the task moves data from or to it
     */
    public boolean uses(UUID endpointId) {
        return endpointId.equals(sourceEndpointId) || endpointId.equals(destinationEndpointId);
    }

    /** @return how to reach the source endpoint */
    public EndpointAccess source() {
        return source;
    }

    /** @return how to reach the destination endpoint */
    public EndpointAccess destination() {
        return destination;
    }

    /** @return whether to compare checksums after each file */
    public boolean verifyChecksum() {
        return verifyChecksum;
    }

    /** @return the least protection of every data channel */
    public ProtectionLevel dataProtection() {
        return dataProtection;
    }

    /** @return when the first endpoint credential expires, or null */
    public Instant credentialsExpire() {
        return credentialsExpire;
    }

    /** @return the deadline or null */
    public Instant deadline() {
        return deadline;
    }

    /** @param newDeadline the deadline the owner set while the task runs, or null for none */
    public void deadline(Instant newDeadline) {
        this.deadline = newDeadline;
    }

    /** @return true once cancelled, failed or ended: workers must stop */
    public boolean isStopped() {
        return stopped.get();
    }

    /**
     * Stops the execution: marks it and closes every open session, which makes transfers in
     * flight fail promptly.
     *
     * @return true for the first call
     */
    public boolean stop() {
        if (!stopped.compareAndSet(false, true)) {
            return false;
        }
        for (GridFtpSession session : List.copyOf(sessions)) {
            closeQuietly(session);
        }
        return true;
    }

    /**
     * Tracks a session so {@link #stop()} can close it. If the execution is already stopped the
     * session is closed at once.
     *
     * @return the session
     */
    public GridFtpSession track(GridFtpSession session) {
        sessions.add(session);
        if (stopped.get()) {
            closeQuietly(session);
        }
        return session;
    }

    /** Closes a tracked session and forgets it. */
    public void release(GridFtpSession session) {
        if (session != null) {
            sessions.remove(session);
            closeQuietly(session);
        }
    }

    private static void closeQuietly(GridFtpSession session) {
        try {
            session.close();
        } catch (IOException | RuntimeException ignored) {
            // a broken control channel is what we are getting rid of
        }
    }

    /** @param count chunks queued for this task */
    public void chunksQueued(int count) {
        chunksOutstanding.addAndGet(count);
    }

    /** @return true if this was the task's last chunk */
    public boolean chunkFinished() {
        return chunksOutstanding.decrementAndGet() == 0;
    }

    /**
     * Seeds the running totals (used in PROGRESS details) with what the database already counts.
     */
    public void startTotals(long bytes, long files) {
        bytesTotal.set(bytes);
        filesTotal.set(files);
    }

    /** @param bytes bytes moved (negative to take back the partial bytes of a failed attempt) */
    public void addBytes(long bytes) {
        if (bytes != 0) {
            bytesDelta.addAndGet(bytes);
            bytesTotal.addAndGet(bytes);
        }
    }

    /** Records a file that arrived. */
    public void fileArrived(FileTransfer file, long bytes) {
        filesDelta.incrementAndGet();
        filesTotal.incrementAndGet();
        arrived.add(new TransferredFile(taskId, file.sourcePath(), file.destinationPath(), bytes));
        niceStatus = "OK";
    }

    /** Records a file out of attempts. */
    public void fileFailed() {
        failedDelta.incrementAndGet();
    }

    /** Records a fault (a failed attempt); {@code nice_status} shows its code until the next success. */
    public void faulted(Fault fault) {
        faultsDelta.incrementAndGet();
        niceStatus = fault.code().name();
    }

    /** @return the current {@code nice_status} */
    public String niceStatus() {
        return niceStatus;
    }

    /** @return running bytes total for PROGRESS details */
    public long bytesTotal() {
        return bytesTotal.get();
    }

    /** @return running files total for PROGRESS details */
    public long filesTotal() {
        return filesTotal.get();
    }

    /**
     * Takes the counter deltas accumulated since the last call.
     *
     * @return bytes, files, failed subtasks, faults
     */
    Deltas drainDeltas() {
        return new Deltas(
                bytesDelta.getAndSet(0), filesDelta.getAndSet(0), failedDelta.getAndSet(0), faultsDelta.getAndSet(0));
    }

    /** @return files that arrived since the last call */
    List<TransferredFile> drainArrived() {
        List<TransferredFile> files = new ArrayList<>();
        TransferredFile file;
        while ((file = arrived.poll()) != null) {
            files.add(file);
        }
        return files;
    }

    /**
     * Counter changes to write.
     *
     * @param bytes bytes
     * @param files files transferred (each is also a subtask succeeded)
     * @param failed subtasks failed
     * @param faults faults
     */
    record Deltas(long bytes, long files, long failed, long faults) {
        boolean isEmpty() {
            return bytes == 0 && files == 0 && failed == 0 && faults == 0;
        }
    }
}
