package org.ferry.mover.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The TAR module's argument syntax: names survive the round trip, bad arguments are refused. */
class TarModuleTest {

    @Test
    void namesSurviveTheRoundTrip() {
        List<String> names = List.of("plain", "with space", "quote\"d", "per%cent+plus", "ünï©ødé", "semi;colon=eq");
        String argument = TarModule.retrieveArgument(names, "/some dir/x");
        assertThat(argument).startsWith("TAR=\"").doesNotContain(" \" ");
        assertThat(argument.substring(5, argument.lastIndexOf('"'))).doesNotContain(" ", "\"");
        assertThat(TarModule.selects(argument)).isTrue();
        TarModule.Argument parsed = TarModule.parse(argument);
        assertThat(parsed.names()).containsExactlyElementsOf(names);
        assertThat(parsed.path()).isEqualTo("/some dir/x");
        TarModule.Argument store = TarModule.parse(TarModule.storeArgument("/d"));
        assertThat(store.names()).isEmpty();
        assertThat(store.path()).isEqualTo("/d");
    }

    @Test
    void otherModulesAreNotSelected() {
        assertThat(TarModule.selects("P 0 10 /f")).isFalse();
        assertThat(TarModule.selects("TAR /f")).isFalse();
        assertThat(TarModule.selects("tar=\"a\" /d")).isTrue();
    }

    @Test
    void badArgumentsAreRefusedWithTheReason() {
        assertThatThrownBy(() -> TarModule.parse("TAR=a /d")).hasMessageContaining("quoted");
        assertThatThrownBy(() -> TarModule.parse("TAR=\"a /d")).hasMessageContaining("closing quote");
        assertThatThrownBy(() -> TarModule.parse("TAR=\"a\"")).hasMessageContaining("directory");
        assertThatThrownBy(() -> TarModule.parse("TAR=\"..\" /d")).hasMessageContaining("plain file name");
        assertThatThrownBy(() -> TarModule.parse("TAR=\"a%2Fb\" /d")).hasMessageContaining("plain file name");
        assertThatThrownBy(() -> TarModule.parse("TAR=\"a//b\" /d")).hasMessageContaining("plain file name");
        assertThatThrownBy(() -> TarModule.parse("TAR=\"%zz\" /d")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> TarModule.retrieveArgument(List.of("a/b"), "/d"))
                .hasMessageContaining("a/b");
    }
}
