package org.ferry.mover.server.popen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.ferry.mover.server.pi.FtpException;
import org.junit.jupiter.api.Test;

/**
 * The stacks globus-url-copy sends (read from its -dbg traffic against globus-gridftp-server 13.24:
 * {@code -src-pipe "tar#cf#-#-C#/data#run1"} sends {@code SITE SETDISKSTACK
 * popen:argv=#tar#cf#-#-C#/data#run1}, {@code -dst-pipe} the same with {@code ,ordering} appended,
 * {@code -fsstack X} sends X as it is) and what Ferry makes of them.
 */
class DiskStacksTest {

    private static final PopenPolicy TAR = PopenPolicy.allowing(PopenAllowList.parse("tar:/bin/tar,echo:/bin/echo"));

    @Test
    void srcPipeRunsTheAliasedProgramWithItsArgumentsAsAnArgv() throws FtpException {
        Optional<PopenCommand> command = DiskStacks.approveDiskStack("popen:argv=#tar#cf#-#-C#/data#run1", TAR);
        assertThat(command)
                .hasValueSatisfying(
                        c -> assertThat(c.argv()).containsExactly("/bin/tar", "cf", "-", "-C", "/data", "run1"));
    }

    @Test
    void dstPipeWithOrderingAndTheFullPathAreAccepted() throws FtpException {
        assertThat(DiskStacks.approveDiskStack("popen:argv=#/bin/tar#xf#-#-C#/archive,ordering", TAR))
                .hasValueSatisfying(c -> assertThat(c.argv()).containsExactly("/bin/tar", "xf", "-", "-C", "/archive"));
    }

    @Test
    void anyDelimiterTheClientPicksSplitsTheArgv() throws FtpException {
        assertThat(DiskStacks.approveDiskStack("popen:argv=$tar$cf$-$a#b", TAR))
                .hasValueSatisfying(c -> assertThat(c.argv()).containsExactly("/bin/tar", "cf", "-", "a#b"));
    }

    @Test
    void shellMetacharactersStayInTheirArguments() throws FtpException {
        assertThat(DiskStacks.approveDiskStack("popen:argv=#echo#$(id)#`id`#*#a|b#>x", TAR))
                .hasValueSatisfying(
                        c -> assertThat(c.argv()).containsExactly("/bin/echo", "$(id)", "`id`", "*", "a|b", ">x"));
    }

    @Test
    void escapedCommasAndSemicolonsAreDecoded() throws FtpException {
        assertThat(DiskStacks.approveDiskStack("popen:argv=#echo#a%2Cb#c%3Bd", TAR))
                .hasValueSatisfying(c -> assertThat(c.argv()).containsExactly("/bin/echo", "a,b", "c;d"));
    }

    @Test
    void plainFileStacksMeanTheFilesThemselves() throws FtpException {
        assertThat(DiskStacks.approveDiskStack("default", TAR)).isEmpty();
        assertThat(DiskStacks.approveDiskStack("file", TAR)).isEmpty();
        assertThat(DiskStacks.approveDiskStack("ordering,file", TAR)).isEmpty();
    }

    @Test
    void aProgramOffTheListIsRefusedByName() {
        assertThatThrownBy(() -> DiskStacks.approveDiskStack("popen:argv=#ls#-l", TAR))
                .isInstanceOf(FtpException.class)
                .satisfies(e -> {
                    assertThat(((FtpException) e).reply().code()).isEqualTo(500);
                    assertThat(((FtpException) e).reply().text())
                            .contains("'ls'")
                            .contains("allow list");
                });
        // an alias is not a prefix, a path is compared as given
        assertThatThrownBy(() -> DiskStacks.approveDiskStack("popen:argv=#ta#cf", TAR))
                .hasMessageContaining("'ta'");
        assertThatThrownBy(() -> DiskStacks.approveDiskStack("popen:argv=#/bin/../bin/tar#cf", TAR))
                .hasMessageContaining("'/bin/../bin/tar'");
    }

    @Test
    void popenIsOffByDefault() {
        assertThatThrownBy(() -> DiskStacks.approveDiskStack("popen:argv=#tar#cf#-", PopenPolicy.disabled()))
                .hasMessageContaining("not enabled");
        assertThatThrownBy(() -> DiskStacks.approveDiskStack("gzip", TAR)).hasMessageContaining("'gzip'");
    }

    @Test
    void malformedStacksAreRefused() {
        for (String bad : List.of(
                "",
                " ",
                "popen",
                "popen:",
                "popen:argv=",
                "popen:argv=#",
                "popen:argv=##cf",
                "popen:foo=1;argv=#tar",
                "popen:argv=#tar,popen:argv=#tar",
                "popen:argv=#tar%zz",
                "pop en",
                ",",
                "file,,file")) {
            assertThatThrownBy(() -> DiskStacks.approveDiskStack(bad, TAR))
                    .as(bad)
                    .isInstanceOf(FtpException.class)
                    .satisfies(
                            e -> assertThat(((FtpException) e).reply().code()).isEqualTo(500));
        }
    }

    @Test
    void netStacksOfTcpAndGsiAreWhatFerryDoesAnyway() throws FtpException {
        DiskStacks.approveNetStack("tcp");
        DiskStacks.approveNetStack("tcp,gsi");
        DiskStacks.approveNetStack("gsi,tcp");
        DiskStacks.approveNetStack("default");
        assertThatThrownBy(() -> DiskStacks.approveNetStack("udt")).hasMessageContaining("'udt'");
        assertThatThrownBy(() -> DiskStacks.approveNetStack("tcp,netlogger")).hasMessageContaining("'netlogger'");
    }

    @Test
    void allowListParsesAliasesAndPaths() {
        PopenAllowList list = PopenAllowList.parse("tar:/bin/tar, md5dir:/usr/local/bin/md5dir ,/usr/bin/gzip");
        assertThat(list.resolve("tar")).contains(Path.of("/bin/tar"));
        assertThat(list.resolve("/bin/tar")).contains(Path.of("/bin/tar"));
        assertThat(list.resolve("md5dir")).contains(Path.of("/usr/local/bin/md5dir"));
        assertThat(list.resolve("/usr/bin/gzip")).contains(Path.of("/usr/bin/gzip"));
        assertThat(list.resolve("gzip")).isEmpty();
        for (String bad : List.of("", "tar", "tar:bin/tar", "t r:/bin/tar", "a:/bin/a,a:/bin/b", "x:/bin/x,,")) {
            assertThatThrownBy(() -> PopenAllowList.parse(bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
        }
    }
}
