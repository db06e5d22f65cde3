package org.ferry.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.StringReader;
import java.util.List;
import org.junit.jupiter.api.Test;

class BatchLinesTest {

    @Test
    void wordsAreSplitAsAShellWouldAndCommentsSkipped() throws Exception {
        List<BatchLines.Line> lines = BatchLines.read(new BufferedReader(
                new StringReader("# a comment\n\n-r src/dir 'dst/with space'\n  \"a \\\"quoted\\\" name\" b\\ c\n")));
        assertThat(lines).hasSize(2);
        assertThat(lines.get(0).number()).isEqualTo(3);
        assertThat(lines.get(0).words()).containsExactly("-r", "src/dir", "dst/with space");
        assertThat(lines.get(1).words()).containsExactly("a \"quoted\" name", "b c");
    }

    @Test
    void anUnclosedQuoteNamesItsLine() {
        assertThatThrownBy(() -> BatchLines.read(new BufferedReader(new StringReader("a b\n'c d\n"))))
                .hasMessageContaining("line 2");
    }
}
