package org.ferry.mover.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.ferry.mover.protocol.FileInfo;
import org.junit.jupiter.api.Test;

/** {@link MlsxParser} on RFC 3659 entries as globus-gridftp-server and others write them. */
class MlsxParserTest {

    @Test
    void globusFileEntry() {
        FileInfo info = MlsxParser.parse("Type=file;Modify=20261122023845;Size=3;Perm=awr;UNIX.mode=0644;"
                + "UNIX.owner=gsuser;Unique=fe00-9840d2; héllo wörld.txt");
        assertThat(info)
                .isEqualTo(new FileInfo(
                        "héllo wörld.txt",
                        FileInfo.Type.FILE,
                        3,
                        Instant.parse("2026-11-22T02:38:45Z"),
                        0644,
                        "awr",
                        "gsuser",
                        null,
                        "fe00-9840d2"));
    }

    @Test
    void caseInsensitiveFactsFractionalSecondsAndTypes() {
        FileInfo dir = MlsxParser.parse("type=DIR;modify=20240229123456.250;unix.MODE=755; a  b");
        assertThat(dir.name()).isEqualTo("a  b");
        assertThat(dir.type()).isEqualTo(FileInfo.Type.DIRECTORY);
        assertThat(dir.modified()).isEqualTo(Instant.parse("2024-02-29T12:34:56.250Z"));
        assertThat(dir.unixMode()).isEqualTo(0755);
        assertThat(dir.sizeBytes()).isZero();
        assertThat(MlsxParser.parse("Type=cdir; .").type()).isEqualTo(FileInfo.Type.CURRENT_DIRECTORY);
        assertThat(MlsxParser.parse("Type=pdir; ..").type()).isEqualTo(FileInfo.Type.PARENT_DIRECTORY);
        assertThat(MlsxParser.parse("Type=OS.unix=slink:/etc/x; link").type()).isEqualTo(FileInfo.Type.SYMLINK);
        assertThat(MlsxParser.parse("Type=slink; link").type()).isEqualTo(FileInfo.Type.SYMLINK);
        assertThat(MlsxParser.parse("Type=OS.unix=chr-13/29; tty").type()).isEqualTo(FileInfo.Type.OTHER);
    }

    @Test
    void globusSymlinkKeepsTheTargetsType() {
        FileInfo link = MlsxParser.parse(
                "Type=dir;Modify=20261122023858;Size=4096;UNIX.mode=0755;" + "UNIX.slink=/tmp/gs-try/d%20ir; dirlink");
        assertThat(link.type()).isEqualTo(FileInfo.Type.DIRECTORY);
        assertThat(link.name()).isEqualTo("dirlink");
    }

    @Test
    void missingOrBadFactsAreTolerated() {
        FileInfo info = MlsxParser.parse("Size=abc;Modify=yesterday;UNIX.mode=9z;; odd;name");
        assertThat(info.name()).isEqualTo("odd;name");
        assertThat(info.sizeBytes()).isZero();
        assertThat(info.modified()).isNull();
        assertThat(info.unixMode()).isEqualTo(-1);
        assertThat(info.type()).isEqualTo(FileInfo.Type.OTHER);
    }

    /** Found by ReplyParsingFuzzTest: "UNIX.mode=-0777" gave mode -511 and "Size=-1" size -1. */
    @Test
    void negativeOrOutOfRangeNumbersCountAsAbsent() {
        FileInfo info = MlsxParser.parse("Type=file;Size=-1;UNIX.mode=-0777; f");
        assertThat(info.sizeBytes()).isZero();
        assertThat(info.unixMode()).isEqualTo(-1);
        assertThat(MlsxParser.parse("UNIX.mode=17777; g").unixMode()).isEqualTo(-1);
    }
}
