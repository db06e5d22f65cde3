package org.ferry.mover.server.dtp;

import io.netty.channel.EventLoopGroup;
import java.net.InetSocketAddress;
import java.util.List;
import org.ferry.mover.data.DataChannels;
import org.ferry.mover.storage.StorageInterface;
import org.ferry.mover.stripe.LinkAuth;
import org.ferry.mover.stripe.StripeSends;

/**
 * Makes the DTPs a server's PI drives for SPAS/SPOR: the local one (a single-process server, one
 * stripe) or one per data node (a head node). Called once when the server starts.
 */
@FunctionalInterface
public interface DtpFactory {

    /**
     * @param group the server's event loops
     * @param dataChannels the server's own data channels
     * @param storage the server's storage interface
     * @return the DTPs in stripe order, at least one
     */
    List<DataTransferProcess> create(EventLoopGroup group, DataChannels dataChannels, StorageInterface storage);

    /** @return the DTP in the server's process: one stripe */
    static DtpFactory local() {
        return (group, dataChannels, storage) ->
                List.of(new LocalDtp("local", dataChannels, new StripeSends(group), storage));
    }

    /**
     * @param nodes the data nodes' link addresses, in stripe order, at least one
     * @param auth the secret shared with them
     * @return one {@link RemoteDtp} per data node; links open on first use
     */
    static DtpFactory dataNodes(List<InetSocketAddress> nodes, LinkAuth auth) {
        if (nodes.isEmpty()) {
            throw new IllegalArgumentException("at least one data node");
        }
        List<InetSocketAddress> copy = List.copyOf(nodes);
        return (group, dataChannels, storage) -> copy.stream()
                .map(node -> (DataTransferProcess) new RemoteDtp(node, auth, group))
                .toList();
    }
}
