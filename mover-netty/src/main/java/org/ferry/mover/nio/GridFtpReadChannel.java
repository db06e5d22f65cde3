package org.ferry.mover.nio;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.ferry.mover.client.TransferListener;
import org.ferry.mover.client.TransferOptions;

/**
 * A remote file open for reading: every read the channel cannot answer from memory becomes a
 * partial retrieve ({@code ERET P offset length}, GFD.020 "ERET") over MODE E, on a session of the
 * pool that this channel holds from open to close (its MODE E data connections stay cached between
 * windows, so a window costs one command and no connection set-up).
 *
 * <p>How much one retrieve fetches: a read at a new place fetches what it asks for (at least 64
 * KiB); a read that continues where the last window ended fetches four times as much as the last
 * window, up to the file system's {@code readWindowBytes}, and keeps {@code readAheadWindows} more
 * windows coming in the background while the reader copies out of the current one. Windows read
 * ahead alternate between the channel's session and a second one (taken from the pool if one is
 * free, never waited for), half the file system's parallelism each: while one session's window
 * ends and the next command starts (milliseconds on globus-gridftp-server), the other's data flow.
 * An input stream ({@code Files.newInputStream}) reads ahead from its first byte. A seek away from
 * the windows coming discards them.
 *
 * <p>The size is the file's size when the channel was opened (MLST); a read at or past it gives -1.
 * A failure of a session (the server restarted, a data channel broke, a reply timed out) fails
 * this read and every later one with an {@link IOException} naming the first cause; the channel
 * must be closed. Not safe for concurrent use by several threads (as the JDK allows for
 * {@link SeekableByteChannel}s): one reader at a time.
 */
final class GridFtpReadChannel implements SeekableByteChannel {

    private static final int MIN_WINDOW_BYTES = 64 << 10;

    private final GridFtpFileSystem fileSystem;
    private final String path;
    private final TransferOptions options;
    private final TransferOptions halfOptions; // each of two sessions' share of the parallelism
    private final long size;
    private final int maxWindowBytes;
    private final int aheadWindows;
    private final Fetcher primary;
    private final Deque<Ahead> ahead = new ArrayDeque<>();
    private final Deque<byte[]> spare = new ArrayDeque<>();
    private volatile IOException failure;

    private Fetcher secondary; // a second session for windows read ahead, once the reader is sequential
    private boolean secondaryTried;
    private long aheadCount; // windows asked for ahead: every other one goes to the second session
    private boolean open = true;
    private long position;
    private Window current;
    private long lastEnd = -1; // where the last fetched window ended: a read there is sequential
    private int nextWindowBytes;

    /** Bytes {@code [offset, offset + length)} of the file, in {@code bytes[0, length)}. */
    private record Window(long offset, byte[] bytes, int length) {
        long end() {
            return offset + length;
        }

        boolean covers(long position) {
            return position >= offset && position < end();
        }
    }

    /** A window asked for in the background. */
    private record Ahead(long offset, int length, CompletableFuture<Window> result) {}

    /**
     * One session of this channel and the thread that uses it: its fetches run one after the other
     * (one command at a time on a control channel). The second one leases its session on its own
     * thread, without waiting for one: when the pool has none free, its fetches fail with
     * {@link NoSecondSession} and the reader fetches on the first.
     */
    private final class Fetcher {
        private final ExecutorService executor;
        private SessionPool.Lease lease; // used on the executor's thread only

        Fetcher(SessionPool.Lease lease, String name) {
            this.lease = lease;
            this.executor = Executors.newSingleThreadExecutor(runnable -> {
                Thread thread =
                        new Thread(runnable, name + " " + fileSystem.key().host() + path);
                thread.setDaemon(true);
                return thread;
            });
        }

        /** Leases this fetcher's session on its own thread, if the pool has one free. */
        void leaseLater() {
            executor.execute(() -> {
                try {
                    lease = fileSystem.sessions().tryLease();
                } catch (IOException | RuntimeException e) {
                    lease = null; // its fetches say so, and the reader turns to the first session
                }
            });
        }

        /** Gives the session back once the fetches already queued have run. */
        void close() {
            executor.execute(() -> {
                if (lease != null) {
                    lease.close();
                }
            });
            executor.shutdown();
        }
    }

    /** A fetch on a second session that could not be had: the reader fetches on the first instead. */
    private static final class NoSecondSession extends RuntimeException {
        private static final long serialVersionUID = 1L;

        NoSecondSession() {
            super("no second session free", null, false, false);
        }
    }

    /**
     * @param sequential whether the reader will read from the start to the end (an input stream):
     *     read ahead from the first read
     * @param size the file's size in bytes, as MLST said
     */
    GridFtpReadChannel(
            GridFtpFileSystem fileSystem, String path, SessionPool.Lease lease, long size, boolean sequential) {
        this.fileSystem = fileSystem;
        this.path = path;
        this.size = size;
        FileSystemSettings settings = fileSystem.settings();
        this.options = settings.transferOptions();
        this.halfOptions = TransferOptions.extendedBlock(Math.max(1, settings.parallelism() / 2));
        this.maxWindowBytes = settings.readWindowBytes();
        this.aheadWindows = settings.readAheadWindows();
        this.nextWindowBytes = sequential ? maxWindowBytes : MIN_WINDOW_BYTES;
        if (sequential) {
            lastEnd = 0;
        }
        this.primary = new Fetcher(lease, "gridftp-read");
        fileSystem.register(this);
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        ensureOpen();
        if (!dst.hasRemaining()) {
            return 0;
        }
        if (position >= size) {
            return -1;
        }
        if (current == null || !current.covers(position)) {
            Window next = windowAt(position, dst.remaining());
            recycle(current);
            current = next;
            if (!current.covers(position)) {
                return -1; // the file shrank since the channel was opened
            }
        }
        int n = (int) Math.min(dst.remaining(), current.end() - position);
        dst.put(current.bytes(), (int) (position - current.offset()), n);
        position += n;
        return n;
    }

    /** The window holding {@code at}: one coming in the background, or one fetched now. */
    private Window windowAt(long at, int wanted) throws IOException {
        while (!ahead.isEmpty()) {
            Ahead head = ahead.peekFirst();
            long headEnd = head.offset() + head.length();
            if (at >= head.offset() && at < headEnd) {
                ahead.pollFirst();
                readAhead(headEnd); // keep the pipeline full before waiting
                Window window = awaitOrNull(head.result());
                if (window == null) { // its session could not be had: one session from now on
                    secondary.close();
                    secondary = null;
                    discardAhead();
                    window = await(fetch(head.offset(), head.length(), primary));
                    readAhead(window.end());
                }
                lastEnd = window.end();
                return window;
            }
            if (headEnd <= at) {
                ahead.pollFirst(); // skipped over: its buffer is the garbage collector's
                continue;
            }
            break;
        }
        boolean sequential = at == lastEnd;
        discardAhead();
        int length;
        if (sequential) {
            length = nextWindowBytes;
            nextWindowBytes = (int) Math.min(maxWindowBytes, 4L * nextWindowBytes);
        } else {
            length = Math.max(wanted, MIN_WINDOW_BYTES);
            nextWindowBytes = (int) Math.min(maxWindowBytes, 4L * length);
        }
        length = (int) Math.min(Math.min(length, maxWindowBytes), size - at);
        CompletableFuture<Window> fetched = fetch(at, length, primary);
        if (sequential) {
            readAhead(at + length);
        }
        Window window = await(fetched);
        lastEnd = window.end();
        return window;
    }

    /**
     * Keeps {@code aheadWindows} windows coming after {@code end} (or after the last one coming),
     * every other one on a second session once more than two windows of the file are left.
     */
    private void readAhead(long end) {
        long next = ahead.isEmpty()
                ? end
                : ahead.peekLast().offset() + ahead.peekLast().length();
        if (!secondaryTried && aheadWindows > 1 && size - next > 2L * maxWindowBytes) {
            secondaryTried = true;
            secondary = new Fetcher(null, "gridftp-read-ahead");
            secondary.leaseLater();
        }
        while (ahead.size() < aheadWindows && next < size) {
            int length = (int) Math.min(maxWindowBytes, size - next);
            Fetcher on = secondary != null && aheadCount++ % 2 == 1 ? secondary : primary;
            ahead.addLast(new Ahead(next, length, fetch(next, length, on)));
            next += length;
        }
    }

    private void discardAhead() {
        ahead.clear(); // fetches still queued run and land in buffers nobody reads
    }

    private CompletableFuture<Window> fetch(long offset, int length, Fetcher on) {
        // big windows take an array of the largest size, used again once read (a new one costs zeroing)
        byte[] buffer = length > maxWindowBytes / 4
                ? (spare.isEmpty() ? new byte[maxWindowBytes] : spare.pollFirst())
                : new byte[length];
        TransferOptions transfer = secondary != null ? halfOptions : options;
        return CompletableFuture.supplyAsync(
                () -> {
                    IOException earlier = failure;
                    if (earlier != null) {
                        throw new FetchFailure(earlier);
                    }
                    SessionPool.Lease lease = on.lease;
                    if (lease == null) {
                        throw new NoSecondSession();
                    }
                    try {
                        long received = lease.session()
                                .downloadPart(
                                        path,
                                        offset,
                                        length,
                                        new WindowSink(buffer, length),
                                        transfer,
                                        TransferListener.NONE);
                        return new Window(offset, buffer, (int) Math.min(received, length));
                    } catch (IOException e) {
                        lease.failed(e);
                        IOException translated = ReplyErrors.translate(e, path);
                        if (!GridFtpFileSystem.isReply(e)) {
                            failure = translated;
                            fileSystem.sessions().dropIdle(); // most likely they lead to the same dead end
                        }
                        throw new FetchFailure(translated);
                    } catch (RuntimeException e) {
                        lease.failed(e);
                        failure = new IOException("reading " + path + " failed: " + e, e);
                        throw e;
                    }
                },
                on.executor);
    }

    /** Carries a fetch's IOException through the future. */
    private static final class FetchFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        FetchFailure(IOException cause) {
            super(cause);
        }
    }

    /** @return the window, or null if it was to come on a second session that could not be had */
    private Window awaitOrNull(CompletableFuture<Window> future) throws IOException {
        try {
            return future.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof NoSecondSession) {
                return null;
            }
            throw failureOf(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted reading " + path);
        }
    }

    private Window await(CompletableFuture<Window> future) throws IOException {
        try {
            return future.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted reading " + path);
        } catch (ExecutionException e) {
            throw failureOf(e);
        }
    }

    private IOException failureOf(ExecutionException e) {
        Throwable cause = e.getCause();
        if (cause instanceof FetchFailure f) {
            IOException io = (IOException) f.getCause();
            if (io instanceof java.nio.file.FileSystemException) {
                return io; // the JDK's exception for the server's reply, e.g. NoSuchFileException
            }
            return new IOException("reading " + path + " on " + fileSystem.key() + " failed: " + io.getMessage(), io);
        }
        return new IOException("reading " + path + " failed: " + cause, cause);
    }

    private void recycle(Window window) {
        if (window != null && window.bytes().length == maxWindowBytes && spare.size() <= aheadWindows) {
            spare.addFirst(window.bytes());
        }
    }

    private void ensureOpen() throws IOException {
        if (!open) {
            throw new ClosedChannelException();
        }
        IOException broken = failure;
        if (broken != null) {
            throw new IOException("the session of this channel failed earlier: " + broken.getMessage(), broken);
        }
    }

    /** @throws NonWritableChannelException always: open for reading */
    @Override
    public int write(ByteBuffer src) {
        throw new NonWritableChannelException();
    }

    @Override
    public long position() throws IOException {
        ensureOpenOnly();
        return position;
    }

    /** Moves the read position; past the end, reads give -1. Fetches nothing until the next read. */
    @Override
    public SeekableByteChannel position(long newPosition) throws IOException {
        ensureOpenOnly();
        if (newPosition < 0) {
            throw new IllegalArgumentException("negative position " + newPosition);
        }
        position = newPosition;
        return this;
    }

    /** @return the file's size in bytes when the channel was opened */
    @Override
    public long size() throws IOException {
        ensureOpenOnly();
        return size;
    }

    /** @throws NonWritableChannelException always: open for reading */
    @Override
    public SeekableByteChannel truncate(long newSize) {
        throw new NonWritableChannelException();
    }

    private void ensureOpenOnly() throws ClosedChannelException {
        if (!open) {
            throw new ClosedChannelException();
        }
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    /**
     * Closes the channel at once; its sessions go back to the pool once the fetches still under way
     * have ended.
     */
    @Override
    public void close() {
        if (!open) {
            return;
        }
        open = false;
        discardAhead();
        current = null;
        spare.clear();
        fileSystem.unregister(this);
        primary.close();
        if (secondary != null) {
            secondary.close();
        }
    }
}
