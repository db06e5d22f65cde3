package org.ferry.mover.server.dtp;

import io.netty.channel.EventLoop;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.FileChannel;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicLong;
import org.ferry.mover.data.DataChannels;
import org.ferry.mover.data.DataEndpoint;
import org.ferry.mover.data.DataSink;
import org.ferry.mover.data.ModeECache;
import org.ferry.mover.data.PassiveListener;
import org.ferry.mover.storage.StorageInterface;
import org.ferry.mover.stripe.StripeSends;

/**
 * The DTP in this process: moves data through {@link DataChannels} (stream mode and MODE E, the
 * session's kept connections, DCAU/PROT, socket buffers) and stripes of a striped send through
 * {@link StripeSends}, reading and writing files through the storage interface. It runs every plain
 * transfer of a server (the one-stripe case: {@link PlainSend}, {@link PlainReceive}), the stripes
 * of a single-process server's SPAS/SPOR, and, inside a data node, the head's requests. A session
 * uses the view {@linkplain #homedOn homed} on its control channel's event loop. Thread-safe.
 */
public final class LocalDtp implements DataTransferProcess {

    private final String name;
    private final DataChannels dataChannels;
    private final StripeSends stripeSends;
    private final StorageInterface storage;
    private final AtomicLong bytesTransferred;

    /**
     * @param name for logs and status
     * @param dataChannels data connections (listening, plain transfers, receiving stripes); not closed here
     * @param stripeSends data connections for sending stripes
     * @param storage file access, confined to the root
     */
    public LocalDtp(String name, DataChannels dataChannels, StripeSends stripeSends, StorageInterface storage) {
        this(name, dataChannels, stripeSends, storage, new AtomicLong());
    }

    private LocalDtp(
            String name,
            DataChannels dataChannels,
            StripeSends stripeSends,
            StorageInterface storage,
            AtomicLong bytesTransferred) {
        this.name = name;
        this.dataChannels = dataChannels;
        this.stripeSends = stripeSends;
        this.storage = storage;
        this.bytesTransferred = bytesTransferred;
    }

    @Override
    public String name() {
        return name;
    }

    /**
     * The same DTP whose plain transfers' first connection, and every connection its PASV listeners
     * accept, live on {@code loop} ({@link DataChannels#homedOn}): a session passes its control
     * channel's loop, so that a small file's replies, data and completion run on one thread.
     *
     * @param loop an event loop of the server's group
     * @return a view sharing everything else, the byte count included
     */
    public LocalDtp homedOn(EventLoop loop) {
        return new LocalDtp(name, dataChannels.homedOn(loop), stripeSends, storage, bytesTransferred);
    }

    /**
     * Whether this DTP accepts data connections on a local TCP port ({@link DataChannels#acceptsOn}):
     * a server asks it of a PORT/EPRT address on its own host, to tell a transfer between two of its
     * own sessions from one to another process.
     *
     * @param port a TCP port, 0..65535
     * @return true while one of its listeners, or a connection one accepted, is open on {@code port}
     */
    public boolean acceptsOn(int port) {
        return dataChannels.acceptsOn(port);
    }

    /**
     * A listener of a SPAS stripe, with the MODE E connections its last receive kept open (GFD.020
     * connection caching): a sender that keeps its data connections between transfers (as every
     * GridFTP sender does when the client skips PASV/PORT for the next file) finds them still
     * open, where closing them after each file raced the sender's next write.
     */
    private record CachingListener(PassiveListener delegate, ModeECache cache) implements PassiveListener {
        @Override
        public InetSocketAddress address() {
            return delegate.address();
        }

        @Override
        public void close() {
            delegate.close();
            cache.close();
        }
    }

    @Override
    public CompletableFuture<PassiveListener> listen(InetAddress announce, SessionChannels session) throws IOException {
        if (session == null) {
            return CompletableFuture.completedFuture(
                    new CachingListener(dataChannels.listen(announce), new ModeECache()));
        }
        return CompletableFuture.completedFuture(channels(session).listen(announce));
    }

    @Override
    public CompletableFuture<Long> send(SendRequest request, TransferProgress progress) {
        if (request instanceof PlainSend plain) {
            // the per-file path of a batch: no wrapper future, no capturing lambda
            return channels(plain.channels())
                    .send(
                            plain.source(),
                            plain.endpoint(),
                            plain.extendedBlockMode(),
                            plain.parallelism(),
                            progress,
                            plain.channels().cache());
        }
        StripeSendRequest stripe = (StripeSendRequest) request;
        FileChannel file;
        try {
            file = storage.openForRead(stripe.path());
        } catch (IOException e) {
            return CompletableFuture.failedFuture(DtpException.of(e));
        }
        CompletableFuture<Long> transfer = stripeSends.send(
                file,
                stripe.offset(),
                stripe.length(),
                stripe.layout(),
                stripe.stripeIndex(),
                stripe.target(),
                stripe.parallelism(),
                stripe.eofCount(),
                progress);
        return finish(transfer, file);
    }

    @Override
    public CompletableFuture<Long> receive(ReceiveRequest request, TransferProgress progress) {
        if (request instanceof PlainReceive plain) {
            return channels(plain.channels())
                    .receive(
                            plain.sink(),
                            plain.endpoint(),
                            plain.extendedBlockMode(),
                            progress,
                            plain.channels().cache());
        }
        StripeReceiveRequest stripe = (StripeReceiveRequest) request;
        FileChannel file;
        try {
            // no truncation here: the PI truncated once, before any stripe started writing
            file = storage.openForWrite(stripe.path(), Long.MAX_VALUE);
        } catch (IOException e) {
            return CompletableFuture.failedFuture(DtpException.of(e));
        }
        DataSink toFile = DataSink.toFile(file, stripe.baseOffset());
        AtomicLong received = new AtomicLong();
        DataSink tracking = (data, offset) -> {
            int length = data.remaining();
            toFile.write(data, offset);
            progress.accept(received.addAndGet(length));
            progress.received(offset, offset + length);
        };
        CompletableFuture<Long> transfer = stripe.listener() instanceof CachingListener caching
                ? dataChannels.receive(
                        tracking, new DataEndpoint.Passive(caching.delegate()), true, null, caching.cache())
                : dataChannels.receive(tracking, new DataEndpoint.Passive(stripe.listener()), true, null);
        return finish(transfer, file);
    }

    /** The data channels with a session's buffer sizes and security; this DTP's own when they are the defaults. */
    private DataChannels channels(SessionChannels session) {
        return dataChannels
                .withSocketBuffers(session.sendBufferBytes(), session.receiveBufferBytes())
                .secured(session.security());
    }

    /** Closes the file when a stripe ends, counts its bytes, maps failures to reply codes. */
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
                Throwable cause = error instanceof CompletionException ? error.getCause() : error;
                result.completeExceptionally(cause instanceof CancellationException ? cause : DtpException.of(cause));
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
