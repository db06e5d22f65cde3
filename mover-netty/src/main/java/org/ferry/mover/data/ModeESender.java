package org.ferry.mover.data;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import java.io.IOException;

/**
 * Sends one connection's share of a MODE E transfer (GFD.020; GFD.020 "Extended Block Mode"):
 * takes blocks from the {@link ModeEDealer}, writes header + payload, and when no blocks are left
 * writes {@code EOD|CLOSE} (0x0C), or {@code EOF|EOD|CLOSE} (0x4C) with the connection count on the
 * one connection that wins the EOF, then closes (dCache's ending, which globus accepts). When the
 * transfer caches connections it writes {@code EOD} / {@code EOF|EOD} without CLOSE instead, stays
 * in the pipeline, and the connection stays open for the next transfer, which this same sender
 * serves ({@link #serve}; GFD.020 "Extended Block Mode", data connection reuse).
 *
 * <p>A file's payloads go as zero-copy regions (sendfile), in blocks larger than a buffered one
 * ({@link ModeEDealer}), except for blocks of at most {@link #FRAMED_MAX_BYTES}; under PROT S/P,
 * where TLS must see the bytes, they are read into pooled direct buffers instead, and so they are
 * when the receiver runs on this host (loopback, or this host's own address): sendfile leaves the copy out of the page cache
 * to the receiver, which then reads memory no cache holds, while a copy made here puts bytes in the
 * socket that the receiver copies out while they are still in the shared caches, and splits the
 * work between the two processes (a single-threaded receiver such as globus-url-copy was the
 * bottleneck of a MODE E download otherwise). A block read into a buffer goes with its header in
 * that one buffer, and the connection's last block with the end header too: a small file is one
 * write.
 *
 * <p>Backpressure: a block is read only while the channel is writable and fewer than
 * {@link #MAX_IN_FLIGHT} blocks await the socket, so an 8 GiB send holds a few blocks per
 * connection in memory, not the file.
 */
final class ModeESender extends WritabilityPump {

    /** This handler's name in a cached sending connection's pipeline, where the next transfer finds it. */
    static final String NAME = "modeESender";

    /** Blocks written but not yet handed to the socket, per connection. */
    static final int MAX_IN_FLIGHT = 4;

    /**
     * Largest block of a file that goes with its header in one buffer even where file regions could
     * go (a receiver on another host): one write and one segment instead of a header, a sendfile
     * and an end header on their own, each a segment under TCP_NODELAY and a wake-up of the
     * receiver; copying this much costs less than the two system calls saved. A small file is one
     * such block.
     */
    static final int FRAMED_MAX_BYTES = 64 * 1024;

    private SourceReader reader;
    private ModeEDealer dealer;
    private DataTransfer transfer;
    private ChannelHandlerContext context;
    /** Whether payloads are copied into buffers (TLS, or the peer on this host); per connection. */
    private Boolean copies;
    /** The end header went out with the last block; the end completes when that write has. */
    private boolean endQueued;

    /**
     * @param reader the source (it knows whether payloads go as file regions or buffers)
     * @param dealer deals the blocks over the transfer's connections
     * @param transfer the transfer this connection serves
     */
    ModeESender(SourceReader reader, ModeEDealer dealer, DataTransfer transfer) {
        super(transfer, "MODE E data connection");
        this.reader = reader;
        this.dealer = dealer;
        this.transfer = transfer;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        context = ctx;
        super.handlerAdded(ctx);
    }

    /**
     * Sends the next transfer's share on this kept connection, which ended the last one with EOD and
     * stayed open (GFD.020 connection reuse): no handler of the pipeline changes between files. Call
     * on the connection's event loop.
     *
     * @param nextReader the next transfer's source
     * @param nextDealer its blocks
     * @param nextTransfer the transfer
     * @return false if this sender cannot serve (not in a pipeline, or still sending)
     */
    boolean serve(SourceReader nextReader, ModeEDealer nextDealer, DataTransfer nextTransfer) {
        if (context == null || !isEnded()) {
            return false;
        }
        reader = nextReader;
        dealer = nextDealer;
        transfer = nextTransfer;
        copies = null; // the next reader decides
        endQueued = false;
        restart(context, nextTransfer);
        return true;
    }

    @Override
    protected void pump(ChannelHandlerContext ctx) {
        if (endQueued) {
            // the last block carried the end header: end once it and every block before it are in
            // the socket (a failed write failed the transfer, which then ends nothing)
            if (isEnded() && inFlight() == 0 && !transfer.isDone()) {
                endQueued = false;
                ended(ctx, transfer, dealer);
            }
            return;
        }
        while (canWrite(ctx, MAX_IN_FLIGHT)) {
            boolean copying = reader.readsFileIntoBuffers(copies(ctx));
            ModeEDealer.Block block = dealer.claimBlock(!copying && reader.readsFile());
            if (block == null) {
                // End only after every block's write completed: listeners of earlier writes may be
                // notified after later ones (Netty defers deep listener chains, e.g. under SslHandler),
                // and the EOF's listener must see all bytes counted.
                if (inFlight() == 0) {
                    end(ctx);
                }
                return;
            }
            if (copying || reader.readsFileIntoBuffers(block.length() <= FRAMED_MAX_BYTES)) {
                writeFramed(ctx, block);
                if (endQueued) {
                    return; // the end went with that block: nothing more to claim
                }
                continue;
            }
            long offset = block.offset();
            int length = block.length();
            Object payload;
            try {
                // a file region goes to the socket by sendfile: no copy of the file into user space
                // (the copy was two fifths of a sending server's CPU reading a cold 4 GiB file)
                payload = reader.read(ctx.alloc(), offset, length, copies(ctx));
            } catch (IOException | RuntimeException e) {
                transfer.fail(e);
                return;
            }
            ctx.write(ModeEHeader.data(length, offset), ctx.voidPromise());
            writeCounted(ctx, payload, length);
        }
    }

    /**
     * Writes a block read into a buffer as one buffer: its header, its payload and, when no block is
     * left to deal, this connection's end header. One write, one segment on loopback: a small file
     * sent as header, payload and EOD in three writes cost three trips through the TCP stack and
     * up to three wake-ups of a receiver that reads them one by one (globus-url-copy -pp).
     */
    private void writeFramed(ChannelHandlerContext ctx, ModeEDealer.Block block) {
        boolean last = !dealer.hasBlocks();
        ByteBuf buf = ctx.alloc().directBuffer(ModeEHeader.LENGTH * (last ? 2 : 1) + block.length());
        try {
            ModeEHeader.data(block.length(), block.offset()).writeTo(buf);
            reader.readInto(buf, block.offset(), block.length());
        } catch (IOException | RuntimeException e) {
            buf.release();
            transfer.fail(e);
            return;
        }
        if (last) {
            endHeader().writeTo(buf);
            endQueued = true;
        }
        writeCounted(ctx, buf, block.length(), last);
    }

    private boolean copies(ChannelHandlerContext ctx) {
        Boolean copying = copies;
        if (copying == null) {
            copying = reader.copiesFor(ctx.channel());
            copies = copying;
        }
        return copying;
    }

    /**
     * This connection's end header (GFD.020): EOD, with EOF and the connection count on the one
     * connection that wins the EOF; with CLOSE unless the transfer caches its connections.
     */
    private ModeEHeader endHeader() {
        // Caching (GFD.020 connection reuse): EOD without CLOSE and the connection stays open for
        // the next transfer; otherwise dCache's ending, EOD|CLOSE then close, which globus accepts.
        int close = transfer.caching() ? 0 : ModeEHeader.CLOSE;
        return dealer.claimEof()
                ? new ModeEHeader(ModeEHeader.EOF | ModeEHeader.EOD | close, 0, dealer.connections())
                : new ModeEHeader(ModeEHeader.EOD | close, 0, 0);
    }

    private void end(ChannelHandlerContext ctx) {
        markEnded();
        DataTransfer ending = transfer; // the next transfer may take this connection before the listener returns
        ModeEDealer dealt = dealer;
        ctx.writeAndFlush(endHeader()).addListener(f -> {
            if (!f.isSuccess()) {
                ending.fail(f.cause());
                return;
            }
            ended(ctx, ending, dealt);
        });
    }

    /** The end header is in the socket, and every block of this connection before it. */
    private static void ended(ChannelHandlerContext ctx, DataTransfer ending, ModeEDealer dealt) {
        if (ending.caching()) {
            ending.keep(ctx.channel()); // this sender stays, ready for the next transfer
        } else {
            ctx.close();
        }
        if (dealt.connectionFinished()) {
            ending.succeed();
        }
    }
}
