package org.ferry.mover.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link ListenPorts}: the kernel's ephemeral range as Linux writes it, and ports within it. */
class ListenPortsTest {

    @TempDir
    Path dir;

    @Test
    void readsTheRangeAsLinuxWritesIt() throws Exception {
        Path file = Files.writeString(dir.resolve("ip_local_port_range"), "10000\t65000\n");
        assertThat(ListenPorts.fromKernel(file)).isEqualTo(new ListenPorts(10000, 65000));
    }

    @Test
    void aMissingOrMalformedFileGivesLinuxsDefault() throws Exception {
        assertThat(ListenPorts.fromKernel(dir.resolve("absent"))).isEqualTo(ListenPorts.LINUX_DEFAULT);
        Path odd = Files.writeString(dir.resolve("odd"), "60000 1000\n");
        assertThat(ListenPorts.fromKernel(odd)).isEqualTo(ListenPorts.LINUX_DEFAULT);
        Path text = Files.writeString(dir.resolve("text"), "low high\n");
        assertThat(ListenPorts.fromKernel(text)).isEqualTo(ListenPorts.LINUX_DEFAULT);
    }

    @Test
    void picksEveryPortOfASmallRangeAndNothingOutside() {
        ListenPorts ports = new ListenPorts(40000, 40003);
        Set<Integer> seen = new TreeSet<>();
        for (int i = 0; i < 2000; i++) {
            seen.add(ports.pick());
        }
        assertThat(seen).containsExactly(40000, 40001, 40002, 40003);
        assertThatThrownBy(() -> new ListenPorts(0, 10)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void candidatesAreRandomPortsOfTheRangeThenTheKernelsChoice() {
        int[] candidates = new ListenPorts(40000, 40003).candidates();
        assertThat(candidates).hasSize(ListenPorts.ATTEMPTS + 1);
        assertThat(candidates[ListenPorts.ATTEMPTS]).isZero();
        for (int i = 0; i < ListenPorts.ATTEMPTS; i++) {
            assertThat(candidates[i]).isBetween(40000, 40003);
        }
    }

    @Test
    void theSystemRangeIsAUsableRange() {
        ListenPorts system = ListenPorts.system();
        assertThat(system.low()).isPositive();
        assertThat(system.high()).isBetween(system.low(), 65535);
    }
}
