package org.ferry.mover.server.dtp;

import io.netty.channel.EventLoopGroup;
import java.net.InetSocketAddress;
import java.util.List;
import org.ferry.mover.stripe.LinkAuth;

/**
 * Makes the DTPs a server's PI stripes its transfers over (SPAS/SPOR): the server's own (a
 * single-process server, one stripe) or one per data node (a head node). Plain transfers always run
 * on the server's own DTP. Called once when the server starts.
 */
@FunctionalInterface
public interface DtpFactory {

    /**
     * @param group the server's event loops
     * @param local the DTP in the server's process, which runs its plain transfers
     * @return the DTPs in stripe order, at least one
     */
    List<DataTransferProcess> create(EventLoopGroup group, LocalDtp local);

    /** @return the DTP in the server's process: one stripe */
    static DtpFactory local() {
        return (group, local) -> List.of(local);
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
        return (group, local) -> copy.stream()
                .map(node -> (DataTransferProcess) new RemoteDtp(node, auth, group))
                .toList();
    }
}
