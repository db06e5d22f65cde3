package org.ferry.mover.nio;

import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.NonReadableChannelException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.FileSystemException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.ferry.mover.client.TransferListener;
import org.ferry.mover.client.TransferOptions;
import org.ferry.mover.data.DataSource;

/**
 * A remote file open for writing: writes gather in a buffer of {@code writeBufferBytes}, which goes
 * to the server as {@code ESTO A offset} (GFD.020 "ESTO": into the file at that offset, neither
 * creating it afresh nor truncating it) over MODE E when it is full, when a write lands somewhere
 * else than where the buffer ends, and at {@link #close()}. One buffer is sent in the background
 * while the next fills (the channel holds one session of the pool from open to close). The file was
 * created or truncated when the channel was opened (an empty {@code STOR}), as its open options
 * asked.
 *
 * <p>A failed send fails the next write, {@code position}-independent, and {@link #close()}, with
 * an {@link IOException} naming the server's reply; the file then holds what reached the server.
 * Not safe for concurrent use by several threads: one writer at a time.
 */
final class GridFtpWriteChannel implements SeekableByteChannel {

    private final GridFtpFileSystem fileSystem;
    private final String path;
    private final SessionPool.Lease lease;
    private final TransferOptions options;
    private final boolean append;
    private final ExecutorService sender;
    private final int bufferBytes;

    private boolean open = true;
    private long position;
    private long size; // the file's size as far as this channel knows
    private byte[] buffer;
    private byte[] inFlight; // the buffer being sent (or last sent), filled again once sent
    private long bufferStart;
    private int buffered;
    private CompletableFuture<Void> sending = CompletableFuture.completedFuture(null);
    private volatile IOException failure;
    private boolean storeAfresh; // the next send creates or truncates the file (STOR)

    /**
     * @param size the file's size after the open (0 if it was created or truncated)
     * @param append whether every write goes to the end (APPEND)
     * @param storeAfresh whether the file must still be created or truncated: the first send that
     *     starts at offset 0 is then a STOR of its bytes, saving a round trip for a file written
     *     from its start; otherwise (or at close, with nothing written) an empty STOR comes first
     */
    GridFtpWriteChannel(
            GridFtpFileSystem fileSystem,
            String path,
            SessionPool.Lease lease,
            long size,
            boolean append,
            boolean storeAfresh) {
        this.fileSystem = fileSystem;
        this.storeAfresh = storeAfresh;
        this.path = path;
        this.lease = lease;
        this.size = size;
        this.append = append;
        this.position = append ? size : 0;
        FileSystemSettings settings = fileSystem.settings();
        this.options = settings.transferOptions();
        this.bufferBytes = settings.writeBufferBytes();
        this.sender = Executors.newSingleThreadExecutor(runnable -> {
            Thread thread =
                    new Thread(runnable, "gridftp-write " + fileSystem.key().host() + path);
            thread.setDaemon(true);
            return thread;
        });
        fileSystem.register(this);
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        ensureOpen();
        if (append) {
            position = size();
        }
        int written = 0;
        while (src.hasRemaining()) {
            if (buffered > 0 && position != bufferStart + buffered) {
                send();
            }
            if (buffer == null) {
                buffer = new byte[bufferBytes];
            }
            if (buffered == 0) {
                bufferStart = position;
            }
            int n = Math.min(src.remaining(), buffer.length - buffered);
            src.get(buffer, buffered, n);
            buffered += n;
            position += n;
            written += n;
            if (buffered == buffer.length) {
                send();
            }
        }
        size = Math.max(size, position);
        return written;
    }

    /** Sends the buffer in the background, after the previous one has been sent. */
    private void send() throws IOException {
        if (buffered == 0) {
            return;
        }
        awaitSending();
        byte[] free = inFlight; // sent: it can be filled again
        byte[] bytes = buffer;
        int length = buffered;
        long offset = bufferStart;
        inFlight = bytes;
        buffer = free;
        buffered = 0;
        sending = CompletableFuture.runAsync(
                () -> {
                    if (failure != null) {
                        return;
                    }
                    try {
                        DataSource source = DataSource.ofBuffer(Unpooled.wrappedBuffer(bytes, 0, length));
                        if (storeAfresh) {
                            storeAfresh = false;
                            if (offset == 0) {
                                lease.session().upload(source, path, -1, options, TransferListener.NONE);
                                return;
                            }
                            storeEmpty();
                        }
                        lease.session().upload(source, path, offset, options, TransferListener.NONE);
                    } catch (IOException e) {
                        lease.failed(e);
                        failure = ReplyErrors.translate(e, path);
                        if (!GridFtpFileSystem.isReply(e)) {
                            fileSystem.sessions().dropIdle(); // most likely they lead to the same dead end
                        }
                    } catch (RuntimeException e) {
                        lease.failed(e);
                        failure = new IOException("writing " + path + " failed: " + e, e);
                    }
                },
                sender);
        throwFailure();
    }

    /** STOR of nothing: creates the file, or truncates it to 0 (RFC 959 section 4.1.3). */
    private void storeEmpty() throws IOException {
        lease.session().upload(DataSource.ofBytes(new byte[0]), path, -1, options, TransferListener.NONE);
    }

    private void awaitSending() throws IOException {
        try {
            sending.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted writing " + path);
        } catch (ExecutionException e) {
            throw new IOException("writing " + path + " failed: " + e.getCause(), e.getCause());
        }
        throwFailure();
    }

    private void throwFailure() throws IOException {
        IOException broken = failure;
        if (broken != null) {
            if (broken instanceof FileSystemException) {
                throw broken;
            }
            throw new IOException(
                    "writing " + path + " on " + fileSystem.key() + " failed: " + broken.getMessage(), broken);
        }
    }

    /** @throws NonReadableChannelException always: open for writing */
    @Override
    public int read(ByteBuffer dst) {
        throw new NonReadableChannelException();
    }

    @Override
    public long position() throws IOException {
        ensureOpenOnly();
        return position;
    }

    @Override
    public SeekableByteChannel position(long newPosition) throws IOException {
        ensureOpenOnly();
        if (newPosition < 0) {
            throw new IllegalArgumentException("negative position " + newPosition);
        }
        position = newPosition;
        return this;
    }

    /** @return the file's size including what is still buffered */
    @Override
    public long size() throws IOException {
        ensureOpenOnly();
        return Math.max(size, bufferStart + buffered);
    }

    /**
     * Truncation to the current size or beyond changes nothing (the JDK's contract); to 0 the file
     * is stored afresh, empty; to any other smaller size it is refused: FTP has no truncate command.
     *
     * @throws FileSystemException for a size between 0 and the current size
     */
    @Override
    public SeekableByteChannel truncate(long newSize) throws IOException {
        ensureOpen();
        if (newSize < 0) {
            throw new IllegalArgumentException("negative size " + newSize);
        }
        if (newSize >= size()) {
            position = Math.min(position, newSize);
            return this;
        }
        if (newSize != 0) {
            throw new FileSystemException(
                    path,
                    null,
                    "FTP cannot truncate a file to " + newSize
                            + " bytes (RFC 959 and GFD.020 have no truncate command); only to 0");
        }
        send();
        awaitSending();
        try {
            storeAfresh = false;
            storeEmpty();
        } catch (IOException e) {
            lease.failed(e);
            throw ReplyErrors.translate(e, path);
        }
        size = 0;
        position = Math.min(position, 0);
        return this;
    }

    private void ensureOpen() throws IOException {
        ensureOpenOnly();
        throwFailure();
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
     * Sends what is buffered, waits until the server has taken all of it, and gives the session
     * back.
     *
     * @throws IOException if a send failed: the file holds what reached the server
     */
    @Override
    public void close() throws IOException {
        if (!open) {
            return;
        }
        try {
            if (failure == null) {
                send();
            }
            awaitSending();
            if (storeAfresh) { // nothing was written: the file is still to be created or emptied
                storeAfresh = false;
                try {
                    storeEmpty();
                } catch (IOException e) {
                    lease.failed(e);
                    throw ReplyErrors.translate(e, path);
                }
            }
        } finally {
            open = false;
            fileSystem.unregister(this);
            sender.execute(lease::close);
            sender.shutdown();
        }
    }
}
