package org.ferry.mover.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.ferry.mover.client.GridFtpReplyException;
import org.junit.jupiter.api.Test;

/** How full disks and quotas are told apart from other faults, and where a file is written until checked. */
class FaultsTest {

    @Test
    void fullDisksAndQuotasAreToldApartWhateverTheReplyCode() {
        // ferry-gridftp's 552 (ENOSPC, EDQUOT, ALLO), RFC 959's 452, globus-gridftp-server's 451 with the errno text
        assertThat(Faults.code(new GridFtpReplyException("STOR /a", 552, "Transfer aborted: no space left on device.")))
                .isEqualTo(FaultCode.NO_SPACE_LEFT);
        assertThat(Faults.code(new GridFtpReplyException("ALLO 9", 552, "Insufficient storage space: 9 bytes needed")))
                .isEqualTo(FaultCode.NO_SPACE_LEFT);
        assertThat(Faults.code(new GridFtpReplyException("STOR /a", 452, "Insufficient storage space in system")))
                .isEqualTo(FaultCode.NO_SPACE_LEFT);
        assertThat(Faults.code(new GridFtpReplyException(
                        "STOR /a", 451, "Local error: System error in write: No space left on device")))
                .isEqualTo(FaultCode.NO_SPACE_LEFT);
        assertThat(Faults.code(new GridFtpReplyException("STOR /a", 552, "Transfer aborted: disk quota exceeded.")))
                .isEqualTo(FaultCode.QUOTA_EXCEEDED);
        assertThat(Faults.code(new IOException("Disk quota exceeded"))).isEqualTo(FaultCode.QUOTA_EXCEEDED);
        assertThat(Faults.code(new IOException("No space left on device"))).isEqualTo(FaultCode.NO_SPACE_LEFT);
        // other 4xx stay transient endpoint errors
        assertThat(Faults.code(new GridFtpReplyException("STOR /a", 451, "Local error in processing")))
                .isEqualTo(FaultCode.ENDPOINT_ERROR);
    }

    @Test
    void spaceFaultsWaitForSpaceInsteadOfFailingTheFile() {
        assertThat(FaultCode.NO_SPACE_LEFT.waitsForSpace()).isTrue();
        assertThat(FaultCode.QUOTA_EXCEEDED.waitsForSpace()).isTrue();
        assertThat(FaultCode.NO_SPACE_LEFT.isPermanent()).isFalse();
        assertThat(FaultCode.CONNECTION_BROKEN.waitsForSpace()).isFalse();
    }

    @Test
    void aFileIsWrittenUnderAHiddenTemporaryNameBesideItsOwn() {
        assertThat(FileMover.partPath("/data/run 1/f.bin")).isEqualTo("/data/run 1/.f.bin.ferry-part");
        assertThat(FileMover.partPath("/f")).isEqualTo("/.f.ferry-part");
        String longName = "/d/" + "n".repeat(250);
        assertThat(FileMover.partPath(longName)).as("no room for the suffix").isEqualTo(longName);
    }
}
