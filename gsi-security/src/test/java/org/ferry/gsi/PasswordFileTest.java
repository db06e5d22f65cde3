package org.ferry.gsi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class PasswordFileTest {

    @Test
    void hashedLineVerifies() {
        String line = PasswordFile.line("alice", "s3cret".toCharArray());
        PasswordFile file = PasswordFile.parse(List.of("# users", "", line));
        assertThat(file.size()).isEqualTo(1);
        assertThat(file.verify("alice", "s3cret")).isTrue();
        assertThat(file.verify("alice", "wrong")).isFalse();
        assertThat(file.verify("bob", "s3cret")).isFalse();
        assertThat(file.verify("alice", null)).isFalse();
    }

    @Test
    void malformedLinesAreRejected() {
        assertThatThrownBy(() -> PasswordFile.parse(List.of("alice")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("line 1");
        assertThatThrownBy(() -> PasswordFile.parse(List.of("#", "alice:plaintext")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("line 2");
        assertThatThrownBy(() -> PasswordFile.line("a:b", "x".toCharArray()))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
