package org.ferry.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The command tree itself, no API involved: every command's --help has an example, usage
 * errors exit 2 before any request, --version works everywhere. (What commands do against the
 * API is tested against a real ferry-server in integration-tests, CliEndToEndTest.)
 */
class CommandTreeTest {

    record Run(int exitCode, String out, String err) {}

    private static Run ferry(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        // an API nobody listens on: a usage error must fail before any request
        CliEnvironment environment = new CliEnvironment(
                Map.of("FERRY_API", "http://127.0.0.1:1", "CI", "true"),
                Path.of("/nonexistent-home"),
                new ByteArrayInputStream(new byte[0]),
                false);
        int code = FerryCli.run(environment, out, err, args);
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static List<CommandLine> allCommands() {
        List<CommandLine> all = new ArrayList<>();
        collect(FerryCli.commandLine(CliEnvironment.system()), all);
        return all;
    }

    private static void collect(CommandLine line, List<CommandLine> into) {
        into.add(line);
        line.getSubcommands().values().stream().distinct().forEach(sub -> {
            if (!sub.getCommandName().equals("help")) {
                collect(sub, into);
            }
        });
    }

    @Test
    void everyCommandsHelpShowsAnExample() {
        List<CommandLine> commands = allCommands();
        assertThat(commands.size()).isGreaterThan(30);
        for (CommandLine command : commands) {
            String help = command.getUsageMessage();
            assertThat(help).as(command.getCommandSpec().qualifiedName()).containsPattern("Examples?:");
            assertThat(help).as(command.getCommandSpec().qualifiedName()).contains("ferry");
        }
    }

    @Test
    void helpAndVersionWorkOnEveryLevel() {
        assertThat(ferry("--help").exitCode()).isZero();
        assertThat(ferry("transfer", "--help").out()).contains("--batch", "--sync-level", "--deadline");
        assertThat(ferry("endpoint", "add", "--help").exitCode()).isZero();
        assertThat(ferry("--version").out()).startsWith("ferry ");
        assertThat(ferry("help", "scp").out()).contains("scp");
    }

    @Test
    void usageErrorsExitTwoBeforeAnyRequest() {
        for (String[] args : List.of(
                new String[] {},
                new String[] {"transfer", "admin#a:/x"},
                new String[] {"transfer", "admin#a:/x", "admin#b:/y", "--sync-level", "often"},
                new String[] {"transfer", "admin#a:/x", "admin#b:/y", "--deadline", "tomorrow"},
                new String[] {"transfer", "admin#a:/x", "admin#b:/y", "--notify", "sometimes"},
                new String[] {"transfer", "admin#a", "admin#b:/y", "--batch", "-", "-r"},
                new String[] {"scp", "admin#a:/x"},
                new String[] {"scp", "-P", "22", "admin#a:/x", "admin#b:/y"},
                new String[] {"wait", "t", "--polling-interval", "0"},
                new String[] {"cancel"},
                new String[] {"deadline", "t", "soon"},
                new String[] {"login", "--expires-in", "forever"},
                new String[] {"-F", "yaml", "status"},
                new String[] {"no-such-command"})) {
            Run run = ferry(args);
            assertThat(run.exitCode())
                    .as(String.join(" ", args) + "\n" + run.err())
                    .isEqualTo(2);
            assertThat(run.err()).doesNotContain("cannot reach");
        }
    }

    @Test
    void dryRunPrintsTheDocumentWithoutARequest() {
        Run run = ferry(
                "transfer",
                "admin#a:/src",
                "admin#b:/dst",
                "-r",
                "--include",
                "*.h5",
                "--exclude",
                "*",
                "--notify",
                "failed",
                "--deadline",
                "2026-11-23T08:00:00+00:00",
                "--print-document");
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out())
                .contains(
                        "\"verify_checksum\" : true", "\"notify_on_failed\" : true", "\"notify_on_succeeded\" : false")
                .contains("\"recursive\" : true");
        // the filter rules keep the order they were given in
        assertThat(run.out().indexOf("*.h5")).isLessThan(run.out().indexOf("\"name\" : \"*\""));
        assertThat(run.out().indexOf("include")).isLessThan(run.out().indexOf("exclude"));
    }

    @Test
    void checksumOptionsGoIntoTheDocumentAndAGivenChecksumNamesOneFile() {
        Run run = ferry(
                "transfer",
                "admin#a:/src/f.h5",
                "admin#b:/dst/f.h5",
                "--no-recursive",
                "--checksum-algorithm",
                "ADLER32",
                "--external-checksum",
                "0a1b2c3d",
                "--print-document");
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).contains("\"checksum_algorithm\" : \"ADLER32\"", "\"external_checksum\" : \"0a1b2c3d\"");
        Run recursive = ferry(
                "transfer",
                "admin#a:/src",
                "admin#b:/dst",
                "-r",
                "--external-checksum",
                "0a1b2c3d",
                "--print-document");
        assertThat(recursive.exitCode()).isEqualTo(2);
        assertThat(recursive.err()).contains("--external-checksum");
    }

    @Test
    void alsoToNamesFurtherDestinationsInTheDocument() {
        Run run = ferry(
                "transfer",
                "admin#a:/src",
                "admin#d1:/dst",
                "-r",
                "--also-to",
                "admin#d2",
                "--also-to",
                "admin#d3",
                "--print-document");
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out().replaceAll("\\s+", ""))
                .contains("\"ferry_additional_destination_endpoints\":[\"admin#d2\",\"admin#d3\"]");
    }

    @Test
    void anUnreachableApiSaysSoAndExitsOne() {
        Run run = ferry("status");
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).contains("cannot reach the Ferry API at http://127.0.0.1:1");
    }

    @Test
    void completionIsGeneratedFromTheCommands() {
        Run run = ferry("completion");
        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("complete -F", "scp", "transfer", "--sync-level");
    }
}
