package org.ferry.mover.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetSocketAddress;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class ClientCommandsTest {

    @Test
    void buildsTheLinesTheGlobusToolsSend() {
        assertThat(ClientCommands.retr("/a b/c")).isEqualTo("RETR /a b/c");
        assertThat(ClientCommands.eretPartial(10, 20, "/f")).isEqualTo("ERET P 10 20 /f");
        assertThat(ClientCommands.estoAdjusted(10, "/f")).isEqualTo("ESTO A 10 /f");
        assertThat(ClientCommands.cksm("adler32", "/f")).isEqualTo("CKSM ADLER32 0 -1 /f");
        assertThat(ClientCommands.optsRetr(ClientCommands.parallelismOption(4)))
                .isEqualTo("OPTS RETR Parallelism=4,4,4;");
        assertThat(ClientCommands.spor(List.of(new InetSocketAddress("127.0.0.1", 1025))))
                .isEqualTo("SPOR 127,0,0,1,4,1");
    }

    @Test
    void modificationTimesGoOutInWholeSecondsUtc() {
        Instant modified = Instant.parse("2001-02-03T04:05:06.789Z");
        assertThat(ClientCommands.mfmt(modified, "/d/f x")).isEqualTo("MFMT 20010203040506 /d/f x");
        assertThat(ClientCommands.siteUtime(modified, "/f")).isEqualTo("SITE UTIME 20010203040506 /f");
        assertThatThrownBy(() -> ClientCommands.mfmt(Instant.parse("+10000-01-01T00:00:00Z"), "/f"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ClientCommands.mfmt(modified, "/f\r\nDELE /g"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void restSendsRangesInModeEAndThePrefixInStreamMode() {
        List<ByteRange> done = List.of(new ByteRange(100, 200), new ByteRange(0, 100), new ByteRange(300, 400));
        assertThat(ClientCommands.rest(done, true)).isEqualTo("REST 0-200,300-400");
        assertThat(ClientCommands.rest(done, false)).isEqualTo("REST 200");
        assertThat(ClientCommands.rest(List.of(), true)).isNull();
        assertThat(ClientCommands.rest(List.of(new ByteRange(5, 9)), false)).isNull();
    }

    @Test
    void refusesPathsThatWouldSmuggleASecondCommand() {
        assertThatThrownBy(() -> ClientCommands.dele("/x\r\nDELE /important"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("CR or LF");
        assertThatThrownBy(() -> ClientCommands.stor("/x\nRMD /")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ClientCommands.eretPartial(-1, 5, "/f")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ClientCommands.trevRestart(0)).isInstanceOf(IllegalArgumentException.class);
    }
}
