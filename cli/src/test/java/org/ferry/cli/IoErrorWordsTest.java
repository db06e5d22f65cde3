package org.ferry.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import org.junit.jupiter.api.Test;

/** {@link ApiCommand#describe}: I/O errors on standard error in words, never as a class name. */
class IoErrorWordsTest {

    @Test
    void aMissingOrUnreadableFileIsNamedAsSuch() {
        assertThat(ApiCommand.describe(new NoSuchFileException("/tmp/x509up_u0")))
                .isEqualTo("no such file: /tmp/x509up_u0");
        assertThat(ApiCommand.describe(new AccessDeniedException("/etc/shadow")))
                .isEqualTo("permission denied: /etc/shadow");
    }

    @Test
    void anyOtherErrorIsItsOwnMessage() {
        assertThat(ApiCommand.describe(new IOException("no readable proxy certificate at /p")))
                .isEqualTo("no readable proxy certificate at /p");
        assertThat(ApiCommand.describe(new IOException())).isEqualTo("java.io.IOException");
    }

    @Test
    void whatTheCommandWasDoingComesFirstWhenTheWrapperSaysIt() {
        assertThat(ApiCommand.describe(new UncheckedIOException(
                        "cannot write the token file /h/.ferry/token", new AccessDeniedException("/h/.ferry/token"))))
                .isEqualTo("cannot write the token file /h/.ferry/token: permission denied: /h/.ferry/token");
        assertThat(ApiCommand.describe(
                        new UncheckedIOException("cannot read the batch file b.txt", new IOException("Stream closed"))))
                .isEqualTo("cannot read the batch file b.txt: Stream closed");
        assertThat(ApiCommand.describe(
                        new UncheckedIOException(new IOException("no readable proxy certificate at /p"))))
                .isEqualTo("no readable proxy certificate at /p");
    }
}
