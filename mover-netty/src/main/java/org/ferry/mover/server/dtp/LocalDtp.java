package org.ferry.mover.server.dtp;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.channels.FileChannel;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.ferry.mover.data.DataChannels;
import org.ferry.mover.data.DataEndpoint;
import org.ferry.mover.data.DataSink;
import org.ferry.mover.data.ModeECache;
import org.ferry.mover.data.PassiveListener;
import org.ferry.mover.storage.StorageInterface;
import org.ferry.mover.stripe.StripeSends;

/**
 * The DTP in this process: receives through {@link DataChannels} (any MODE E sender), sends one
 * stripe through {@link StripeSends}, reads and writes files through the storage interface. It is
 * the DTP of a single-process server (SPAS/SPOR with one stripe) and, inside a data node, the DTP
 * that executes the head's requests. Thread-safe.
 */
public final class LocalDtp implements DataTransferProcess {

    private final String name;
    private final DataChannels dataChannels;
    private final StripeSends stripeSends;
    private final StorageInterface storage;
    private final AtomicLong bytesTransferred = new AtomicLong();

    /**
     * @param name for logs and status
     * @param dataChannels data connections (listening and receiving); not closed here
     * @param stripeSends data connections for sending stripes
     * @param storage file access, confined to the root
     */
    public LocalDtp(String name, DataChannels dataChannels, StripeSends stripeSends, StorageInterface storage) {
        this.name = name;
        this.dataChannels = dataChannels;
        this.stripeSends = stripeSends;
        this.storage = storage;
    }

    @Override
    public String name() {
        return name;
    }

    /**
     * A listener of this DTP, with the MODE E connections its last receive kept open (GFD.020
     * connection caching): a sender that keeps its data connections between transfers (as every
     * GridFTP sender does when the client skips PASV/PORT for the next file) finds them still
     * open, where closing them after each file raced the sender's next write.
     */
    private record CachingListener(PassiveListener delegate, ModeECache cache) implements PassiveListener {
        @Override
        public java.net.InetSocketAddress address() {
            return delegate.address();
        }

        @Override
        public void close() {
            delegate.close();
            cache.close();
        }
    }

    @Override
    public CompletableFuture<PassiveListener> listen(InetAddress announce) throws IOException {
        return CompletableFuture.completedFuture(new CachingListener(dataChannels.listen(announce), new ModeECache()));
    }

    @Override
    public CompletableFuture<Long> receive(
            PassiveListener listener, String path, long baseOffset, StripeProgress progress) {
        FileChannel file;
        try {
            // no truncation here: the PI truncated once, before any stripe started writing
            file = storage.openForWrite(path, Long.MAX_VALUE);
        } catch (IOException e) {
            return CompletableFuture.failedFuture(DtpException.of(e));
        }
        DataSink toFile = DataSink.toFile(file, baseOffset);
        AtomicLong received = new AtomicLong();
        DataSink tracking = (data, offset) -> {
            int length = data.remaining();
            toFile.write(data, offset);
            progress.update(received.addAndGet(length), offset + "-" + (offset + length));
        };
        CompletableFuture<Long> transfer = listener instanceof CachingListener caching
                ? dataChannels.receive(
                        tracking, new DataEndpoint.Passive(caching.delegate()), true, null, caching.cache())
                : dataChannels.receive(tracking, new DataEndpoint.Passive(listener), true, null);
        return finish(transfer, file);
    }

    @Override
    public CompletableFuture<Long> send(StripeSendRequest request, StripeProgress progress) {
        FileChannel file;
        try {
            file = storage.openForRead(request.path());
        } catch (IOException e) {
            return CompletableFuture.failedFuture(DtpException.of(e));
        }
        CompletableFuture<Long> transfer = stripeSends.send(
                file,
                request.offset(),
                request.length(),
                request.layout(),
                request.stripeIndex(),
                request.target(),
                request.parallelism(),
                request.eofCount(),
                bytes -> progress.update(bytes, ""));
        return finish(transfer, file);
    }

    /** Closes the file when the transfer ends, counts its bytes, maps failures to reply codes. */
    private CompletableFuture<Long> finish(CompletableFuture<Long> transfer, FileChannel file) {
        CompletableFuture<Long> result = new CompletableFuture<>();
        transfer.whenComplete((bytes, error) -> {
            try {
                file.close();
            } catch (IOException e) {
                // nothing was buffered: positional writes went straight to the channel
            }
            if (error == null) {
                bytesTransferred.addAndGet(bytes);
                result.complete(bytes);
            } else {
                Throwable cause = error instanceof java.util.concurrent.CompletionException ? error.getCause() : error;
                result.completeExceptionally(
                        cause instanceof java.util.concurrent.CancellationException ? cause : DtpException.of(cause));
            }
        });
        // ABOR: cancelling what the caller holds stops the data connections
        result.whenComplete((bytes, error) -> {
            if (result.isCancelled()) {
                transfer.cancel(true);
            }
        });
        return result;
    }

    @Override
    public long bytesTransferred() {
        return bytesTransferred.get();
    }

    @Override
    public void close() {
        // the data channels and event loops belong to whoever created this DTP
    }

    @Override
    public String toString() {
        return "LocalDtp[" + name + "]";
    }
}
