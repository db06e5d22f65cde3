package org.ferry.mover.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;

/** The address forms of RFC 959 section 4.1.2 and RFC 2428 section 2, both directions. */
class HostPortTest {

    @Test
    void sixNumbersRoundTrip() {
        InetSocketAddress address = new InetSocketAddress("127.0.0.1", 33457);
        assertThat(HostPort.format(address)).isEqualTo("127,0,0,1,130,177");
        assertThat(HostPort.parse(" 127, 0,0,1,130,177 ")).isEqualTo(address);
        assertThat(HostPort.find("227 Entering Passive Mode (127,0,0,1,130,177)"))
                .isEqualTo(address);
        assertThat(HostPort.portCommand(address)).isEqualTo("PORT 127,0,0,1,130,177");
    }

    @Test
    void malformedSixNumbersAreRefused() {
        for (String bad : new String[] {
            "1,2,3,4,5", "1,2,3,4,5,6,7", "256,0,0,1,1,1", "1,2,3,4,0,0", "a,b,c,d,e,f", "-1,0,0,1,1,1"
        }) {
            assertThatThrownBy(() -> HostPort.parse(bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
        }
        assertThatThrownBy(() -> HostPort.find("227 no address")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void eprtTakesIpv4AndIpv6LiteralsAndNamesOtherProtocols() {
        assertThat(HostPort.parseEprt("|1|10.0.0.2|5000|")).isEqualTo(new InetSocketAddress("10.0.0.2", 5000));
        assertThat(HostPort.parseEprt("!2!::1!6000!").getPort()).isEqualTo(6000);
        assertThat(HostPort.portCommand(new InetSocketAddress("::1", 6000))).isEqualTo("EPRT |2|0:0:0:0:0:0:0:1|6000|");
        assertThatThrownBy(() -> HostPort.parseEprt("|3|10.0.0.2|5000|"))
                .isInstanceOf(HostPort.UnsupportedProtocolException.class);
        assertThatThrownBy(() -> HostPort.parseEprt("|1|example.org|5000|"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> HostPort.parseEprt("|1|10.0.0.2|0|")).isInstanceOf(IllegalArgumentException.class);
    }
}
