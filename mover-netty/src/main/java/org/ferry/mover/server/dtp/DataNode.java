package org.ferry.mover.server.dtp;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.ferry.mover.data.DataChannels;
import org.ferry.mover.net.Transport;
import org.ferry.mover.storage.PosixStorage;
import org.ferry.mover.stripe.LinkAuth;
import org.ferry.mover.stripe.LinkChallengeHandler;
import org.ferry.mover.stripe.LinkFraming;
import org.ferry.mover.stripe.StripeSends;

/**
 * A data node of a striped server ({@code ferry-gridftp data-node}): the DTP process of the Globus
 * striped server (SC'05 paper, section 5: "a DTP on all other nodes"). Listens for the head's
 * internal link on {@code bindAddress:port}; every link connection must first prove the shared
 * secret ({@link LinkChallengeHandler}), then its requests run on a {@link LocalDtp} over
 * {@code root}, which must be the same file system the head serves. Data listeners bind and are
 * announced on {@code bindAddress}. Pipeline per link connection: framing and codec
 * ({@link LinkFraming}), authentication, then {@link DataNodeRequestHandler}.
 */
public final class DataNode implements AutoCloseable {

    private final EventLoopGroup group;
    private final Channel serverChannel;
    private final LocalDtp dtp;

    private DataNode(EventLoopGroup group, Channel serverChannel, LocalDtp dtp) {
        this.group = group;
        this.serverChannel = serverChannel;
        this.dtp = dtp;
    }

    /**
     * Starts a data node.
     *
     * @param bindAddress address for the link listener and for data listeners
     * @param port link port; 0 picks an ephemeral one ({@link #port()})
     * @param root the directory the head serves as {@code /}
     * @param auth the secret shared with the head
     * @return the running data node
     * @throws IOException if the root is not a directory or the port cannot be bound
     */
    public static DataNode start(InetAddress bindAddress, int port, Path root, LinkAuth auth) throws IOException {
        PosixStorage storage = new PosixStorage(root);
        Transport transport = Transport.preferred();
        EventLoopGroup group = transport.newGroup(0, null);
        DataChannels dataChannels = new DataChannels(group);
        LocalDtp dtp = new LocalDtp("data-node", dataChannels, new StripeSends(group), storage);
        try {
            Channel channel = new ServerBootstrap()
                    .group(group)
                    .channel(transport.serverSocketChannel())
                    .option(ChannelOption.SO_REUSEADDR, true)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            LinkFraming.install(ch.pipeline());
                            ch.pipeline()
                                    .addLast(
                                            "linkChallenge",
                                            new LinkChallengeHandler(
                                                    auth, () -> new DataNodeRequestHandler(dtp, bindAddress)));
                        }
                    })
                    .bind(new InetSocketAddress(bindAddress, port))
                    .syncUninterruptibly()
                    .channel();
            return new DataNode(group, channel, dtp);
        } catch (RuntimeException e) {
            group.shutdownGracefully(0, 0, TimeUnit.SECONDS);
            throw new IOException(
                    "cannot bind " + bindAddress.getHostAddress() + ":" + port + ": " + e.getMessage(), e);
        }
    }

    /** @return the bound link port */
    public int port() {
        return ((InetSocketAddress) serverChannel.localAddress()).getPort();
    }

    /** @return the bound link address */
    public InetSocketAddress address() {
        return (InetSocketAddress) serverChannel.localAddress();
    }

    /** @return bytes this data node has moved in finished transfers, both directions */
    public long bytesTransferred() {
        return dtp.bytesTransferred();
    }

    /** Blocks until the data node is closed (for the stand-alone main). */
    public void awaitClose() {
        serverChannel.closeFuture().awaitUninterruptibly();
        group.terminationFuture().awaitUninterruptibly(5, TimeUnit.SECONDS);
    }

    /** Stops listening, closes links and data connections, releases threads; waits at most 5 s. */
    @Override
    public void close() {
        serverChannel.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
    }
}
