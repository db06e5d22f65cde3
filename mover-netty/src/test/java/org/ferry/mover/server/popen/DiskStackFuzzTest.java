package org.ferry.mover.server.popen;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.ferry.mover.server.pi.FtpException;

/**
 * Properties of the stack and argv parsing: any string a client sends after {@code SITE
 * SETDISKSTACK} or {@code SITE SETNETSTACK} ends in an approval or a 500 (never another exception);
 * nothing but an allow-listed program is ever approved; and any argv, whatever characters its
 * arguments hold (shell metacharacters, spaces, quotes, non-ASCII), comes back word for word when
 * a client joins it with a delimiter none of them contains and escapes {@code , ; %} as {@code %XX}.
 */
class DiskStackFuzzTest {

    private static final PopenPolicy POLICY = PopenPolicy.allowing(PopenAllowList.parse("tar:/bin/tar,echo:/bin/echo"));

    /**
     * globus-url-copy's delimiter choices (guc_l_pipe_to_stack_str) but {@code %}, which the %XX
     * decoding before the split takes for an escape (in globus-gridftp-server as here).
     */
    private static final String DELIMITERS = "#$^*!|&()'{}";

    @Property(tries = 2000, seed = "20261128")
    void anyStackEndsInApprovalOrA500(@ForAll("stacks") String stack) {
        try {
            DiskStacks.approveDiskStack(stack, POLICY)
                    .ifPresent(command -> assertThat(command.program()).isIn("/bin/tar", "/bin/echo"));
        } catch (FtpException e) {
            assertThat(e.reply().code()).isEqualTo(500);
        }
        try {
            DiskStacks.approveNetStack(stack);
        } catch (FtpException e) {
            assertThat(e.reply().code()).isEqualTo(500);
        }
    }

    @Property(tries = 1000, seed = "20261128")
    void argvRoundTrips(@ForAll("arguments") List<String> arguments, @ForAll("delimiters") char delimiter)
            throws FtpException {
        List<String> args = arguments.stream()
                .map(a -> a.replace(String.valueOf(delimiter), ""))
                .filter(a -> !a.isEmpty()) // globus drops a trailing empty item, so none at all
                .toList();
        StringBuilder stack = new StringBuilder("popen:argv=").append(delimiter).append("echo");
        for (String arg : args) {
            stack.append(delimiter).append(escape(arg));
        }
        List<String> expected = new ArrayList<>();
        expected.add("/bin/echo");
        expected.addAll(args);
        assertThat(DiskStacks.approveDiskStack(stack.toString(), POLICY))
                .hasValueSatisfying(c -> assertThat(c.argv()).isEqualTo(expected));
    }

    /** {@code , ; %} and the bytes under a space as %XX (what separates drivers and options, and the escape itself). */
    private static String escape(String arg) {
        StringBuilder out = new StringBuilder();
        for (byte b : arg.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xff);
            if (c == ',' || c == ';' || c == '%' || c < ' ' || c >= 0x80) {
                out.append(String.format("%%%02X", b & 0xff));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    @Provide
    Arbitrary<String> stacks() {
        Arbitrary<String> random = Arbitraries.strings().ofMaxLength(80);
        Arbitrary<String> shaped = Arbitraries.of(
                        "popen:argv=",
                        "popen:",
                        "popen",
                        "file",
                        "ordering",
                        "tcp",
                        "gsi",
                        ",",
                        ";",
                        "=",
                        "#",
                        "%",
                        "%2C",
                        "%zz",
                        "tar",
                        "/bin/tar",
                        "echo",
                        "/bin/echo",
                        "ls",
                        "argv=",
                        "pass_env=T",
                        "default",
                        " ",
                        "\u00e9",
                        "\t")
                .list()
                .ofMaxSize(12)
                .map(parts -> String.join("", parts));
        return Arbitraries.oneOf(random, shaped);
    }

    @Provide
    Arbitrary<List<String>> arguments() {
        Arbitrary<String> argument = Arbitraries.oneOf(
                Arbitraries.strings().withCharRange('\u0001', '\u07ff').ofMaxLength(12),
                Arbitraries.of(
                        "$(id)", "`id`", "*", "a b", "'", "\"", ";", "|", "&&", ">", "<", "\\", "~", "-C", "%41"));
        return argument.list().ofMaxSize(8);
    }

    @Provide
    Arbitrary<Character> delimiters() {
        return Arbitraries.of(DELIMITERS.chars().mapToObj(c -> (char) c).toList());
    }
}
