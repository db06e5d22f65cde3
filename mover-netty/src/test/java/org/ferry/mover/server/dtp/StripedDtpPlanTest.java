package org.ferry.mover.server.dtp;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.util.Collections;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * How a striped send is planned: {@code max(R, D)} stripes, stripe k on DTP k mod D to address
 * k mod R, and exactly one EOF per receiver address announcing all the connections that reach it
 * (GFD.020 "Extended Block Mode").
 */
class StripedDtpPlanTest {

    private static StripedDtp dtps(int n) {
        // plan() only counts the DTPs; these are never asked to move data
        return new StripedDtp(Collections.nCopies(n, new LocalDtp("unused", null, null, null)));
    }

    private static List<InetSocketAddress> addresses(int n) {
        return IntStream.range(0, n)
                .mapToObj(i -> new InetSocketAddress("127.0.0.1", 5000 + i))
                .toList();
    }

    @Test
    void equalCountsPairStripesWithAddressesOneToOne() {
        List<StripeSendRequest> plan = dtps(2).plan("/f", 0, 1000, 100, addresses(2), 3);
        assertThat(plan).extracting(StripeSendRequest::stripeIndex).containsExactly(0, 1);
        assertThat(plan).extracting(r -> r.target().getPort()).containsExactly(5000, 5001);
        assertThat(plan).extracting(StripeSendRequest::eofCount).containsExactly(3L, 3L);
        assertThat(plan).allSatisfy(r -> assertThat(r.layout().stripeCount()).isEqualTo(2));
    }

    @Test
    void moreStripesThanAddressesShareOneEofPerAddress() {
        List<StripeSendRequest> plan = dtps(3).plan("/f", 0, 1000, 100, addresses(1), 2);
        assertThat(plan).extracting(r -> r.target().getPort()).containsExactly(5000, 5000, 5000);
        assertThat(plan).extracting(StripeSendRequest::eofCount).containsExactly(6L, 0L, 0L);

        List<StripeSendRequest> five = dtps(5).plan("/f", 0, 1000, 100, addresses(2), 1);
        // address 0 gets stripes 0, 2, 4; address 1 gets stripes 1, 3
        assertThat(five).extracting(StripeSendRequest::eofCount).containsExactly(3L, 2L, 0L, 0L, 0L);
    }

    @Test
    void moreAddressesThanDtpsGiveEveryAddressItsOwnStripe() {
        List<StripeSendRequest> plan = dtps(1).plan("/f", 10, 1000, 100, addresses(3), 2);
        assertThat(plan).hasSize(3);
        assertThat(plan).extracting(r -> r.target().getPort()).containsExactly(5000, 5001, 5002);
        assertThat(plan).extracting(StripeSendRequest::eofCount).containsExactly(2L, 2L, 2L);
        assertThat(plan).allSatisfy(r -> assertThat(r.offset()).isEqualTo(10));
    }

    @Test
    void everyReceiverGetsExactlyOneEofWithAllItsConnections() {
        for (int d = 1; d <= 6; d++) {
            for (int r = 1; r <= 6; r++) {
                List<StripeSendRequest> plan = dtps(d).plan("/f", 0, 1, 1, addresses(r), 4);
                for (InetSocketAddress address : addresses(r)) {
                    List<StripeSendRequest> toIt = plan.stream()
                            .filter(p -> p.target().equals(address))
                            .toList();
                    assertThat(toIt.stream().filter(p -> p.eofCount() > 0)).hasSize(1);
                    assertThat(toIt.stream()
                                    .mapToLong(StripeSendRequest::eofCount)
                                    .sum())
                            .isEqualTo(4L * toIt.size());
                }
            }
        }
    }
}
