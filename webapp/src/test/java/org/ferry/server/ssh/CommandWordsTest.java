package org.ferry.server.ssh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.stream.Collectors;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.api.Test;

/** The SSH command splitter: a POSIX shell's quoting, nothing else of a shell. */
class CommandWordsTest {

    @Test
    void quotesAndBackslashesAsAShellButMetacharactersAreLiteral() {
        assertThat(CommandWords.split("  ls  -l 'a b#c:/x y' \"d \\\"e\\\" $HOME\" f\\ g ';' `id` $(id) *"))
                .containsExactly("ls", "-l", "a b#c:/x y", "d \"e\" $HOME", "f g", ";", "`id`", "$(id)", "*");
        assertThat(CommandWords.split("a''b \"\" ''")).containsExactly("ab", "", "");
        assertThat(CommandWords.split(" \t\n")).isEmpty();
    }

    @Test
    void anUnclosedQuoteOrATrailingBackslashIsNamed() {
        assertThatThrownBy(() -> CommandWords.split("ls 'x")).hasMessageContaining("unclosed single quote");
        assertThatThrownBy(() -> CommandWords.split("ls \"x")).hasMessageContaining("unclosed double quote");
        assertThatThrownBy(() -> CommandWords.split("ls x\\")).hasMessageContaining("backslash");
    }

    /** What {@code ssh host "$(printf '%q ' ARGS)"} sends, single-quoted: the words come back as they were. */
    @Property(tries = 500)
    void singleQuotedWordsComeBackUnchanged(@ForAll @Size(max = 8) List<@StringLength(max = 20) String> words) {
        String command =
                words.stream().map(w -> "'" + w.replace("'", "'\\''") + "'").collect(Collectors.joining(" "));
        assertThat(CommandWords.split(command)).isEqualTo(words);
    }

    /** Any string either splits or is refused with IllegalArgumentException, never anything else. */
    @Property(tries = 1000)
    void anyStringSplitsOrIsRefused(@ForAll @StringLength(max = 60) String command) {
        try {
            List<String> words = CommandWords.split(command);
            assertThat(words).doesNotContainNull();
        } catch (IllegalArgumentException e) {
            assertThat(e.getMessage()).isNotBlank();
        }
    }
}
