package org.ferry.mover.stripe;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.FileChannel;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongConsumer;
import org.ferry.mover.data.ModeEFrameEncoder;
import org.ferry.mover.net.Transport;

/**
 * Sends one stripe of a file range in MODE E to one receiver address (one SPOR entry) over
 * {@code parallelism} connections (GFD.020; SC'05 paper section 5: "you may have multiple TCP
 * streams open between each of the multiple servers participating in a striped transfer"). The
 * sender connects, as MODE E requires (GFD.020 "Extended Block Mode", data connection reuse). Used by the data node and
 * by the head's local DTP alike. Connections are closed at the end (no caching across stripes).
 */
public final class StripeSends {

    private static final int CONNECT_TIMEOUT_MILLIS = 30_000;

    private final EventLoopGroup group;

    /** @param group event loops for the data connections (NIO or epoll); not closed here */
    public StripeSends(EventLoopGroup group) {
        this.group = group;
    }

    /**
     * One stripe's send.
     *
     * @param file open for reading; not closed here
     * @param offset file offset of the transferred range's first byte
     * @param length bytes in the range
     * @param layout block size and stripe count
     * @param stripeIndex the stripe to send
     * @param target the receiver's listener
     * @param parallelism connections, 1..64
     * @param eofCount EOD count for this stripe's EOF header, 0 = no EOF (see {@link LinkMessage.Send})
     * @param progress cumulative bytes sent, may be null
     * @return completes with the stripe's bytes once all blocks, EODs and the EOF are written;
     *     exceptionally with an IOException on a connect failure, reset or read error; cancel to abort
     */
    public CompletableFuture<Long> send(
            FileChannel file,
            long offset,
            long length,
            StripeLayout layout,
            int stripeIndex,
            InetSocketAddress target,
            int parallelism,
            long eofCount,
            LongConsumer progress) {
        StripeTransfer transfer = new StripeTransfer(progress);
        if (parallelism < 1 || parallelism > 64) {
            transfer.fail(new IOException("parallelism must be 1..64, was " + parallelism));
            return transfer.result();
        }
        StripeDealer dealer = new StripeDealer(layout, stripeIndex, length, parallelism, eofCount);
        for (int i = 0; i < parallelism; i++) {
            ChannelFuture connect = new Bootstrap()
                    .group(group)
                    .channel(Transport.of(group).socketChannel())
                    .option(ChannelOption.TCP_NODELAY, true)
                    .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, CONNECT_TIMEOUT_MILLIS)
                    .option(
                            ChannelOption.WRITE_BUFFER_WATER_MARK,
                            new WriteBufferWaterMark(layout.blockSizeBytes(), 2 * layout.blockSizeBytes()))
                    .handler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            ch.pipeline()
                                    .addLast(new ModeEFrameEncoder(), new StripeSender(file, offset, dealer, transfer));
                        }
                    })
                    .connect(target);
            transfer.register(connect.channel());
            connect.addListener(f -> {
                if (!f.isSuccess()) {
                    transfer.fail(new java.net.ConnectException("cannot open data connection to " + target + ": "
                            + f.cause().getMessage()));
                }
            });
        }
        return transfer.result();
    }
}
