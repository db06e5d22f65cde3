package org.ferry.mover.server.dtp;

import java.net.InetSocketAddress;
import java.util.List;
import org.ferry.mover.data.PassiveListener;

/**
 * The listeners of one SPAS, one per stripe, each on its DTP (GFD.020 "SPAS"). It is the session's
 * passive data endpoint, so a later PASV/SPAS/PORT or the end of the session closes every stripe's
 * listener through {@link #close()}. {@link #address()} is stripe 0's.
 *
 * @param stripes the stripes' listeners, in SPAS reply order
 * @param dtps the DTP of each listener, same order
 */
public record StripedPassiveListener(List<PassiveListener> stripes, List<DataTransferProcess> dtps)
        implements PassiveListener {

    /** @throws IllegalArgumentException if empty or the lists differ in size */
    public StripedPassiveListener {
        stripes = List.copyOf(stripes);
        dtps = List.copyOf(dtps);
        if (stripes.isEmpty() || stripes.size() != dtps.size()) {
            throw new IllegalArgumentException("one listener per DTP, at least one");
        }
    }

    /** @return every stripe's address, in SPAS reply order */
    public List<InetSocketAddress> addresses() {
        return stripes.stream().map(PassiveListener::address).toList();
    }

    @Override
    public InetSocketAddress address() {
        return stripes.get(0).address();
    }

    @Override
    public void close() {
        stripes.forEach(PassiveListener::close);
    }
}
