package org.ferry.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class EndpointPathTest {
    @Test
    void splitsAtTheFirstColonAfterTheHash() {
        assertThat(EndpointPath.parse("admin#a:/dir")).isEqualTo(new EndpointPath("admin#a", "/dir"));
        assertThat(EndpointPath.parse("admin#a:/d:x")).isEqualTo(new EndpointPath("admin#a", "/d:x"));
    }

    @Test
    void splitsAtTheFirstColonWithoutAHash() {
        assertThat(EndpointPath.parse("11111111-2222:/x")).isEqualTo(new EndpointPath("11111111-2222", "/x"));
    }

    @Test
    void pathIsOptional() {
        assertThat(EndpointPath.parse("admin#a")).isEqualTo(new EndpointPath("admin#a", null));
        assertThat(EndpointPath.parse("admin#a:")).isEqualTo(new EndpointPath("admin#a", null));
    }

    @Test
    void endpointIsRequired() {
        assertThatThrownBy(() -> EndpointPath.parse(":/x")).isInstanceOf(IllegalArgumentException.class);
    }
}
