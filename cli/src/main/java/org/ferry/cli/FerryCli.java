package org.ferry.cli;

import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import org.ferry.cli.api.FerryApiClient;
import org.ferry.cli.output.OutputFormat;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * The {@code ferry} command: the top of the command tree, holder of the global options
 * ({@code --api}, {@code -F/--format}) and of what every subcommand needs (the environment, the
 * API client).
 *
 * <p>Exit codes (README "Exit codes and errors"): 0 success (for {@code wait}, {@code scp},
 * {@code rm}: the task ended SUCCEEDED); 1 the API answered 4xx or 5xx or could not be reached,
 * or for {@code wait}, {@code scp}, {@code rm} the task ended FAILED or {@code --timeout} passed
 * (change that code with {@code --timeout-exit-code}); 2 a usage error, before any request; 4 not
 * logged in or not allowed (the API answered 401 or 403).
 */
@Command(
        name = "ferry",
        mixinStandardHelpOptions = true,
        versionProvider = FerryVersion.class,
        sortOptions = false,
        description = "Move research data between endpoints through a Ferry server's REST API.",
        subcommands = {
            LoginCommand.class,
            LogoutCommand.class,
            WhoamiCommand.class,
            EndpointCommand.class,
            LsCommand.class,
            StatCommand.class,
            MkdirCommand.class,
            RenameCommand.class,
            RmCommand.class,
            DeleteCommand.class,
            TransferCommand.class,
            TimerCommand.class,
            ScpCommand.class,
            StatusCommand.class,
            DetailsCommand.class,
            EventsCommand.class,
            WaitCommand.class,
            CancelCommand.class,
            DeadlineCommand.class,
            TokenCommand.class,
            SshKeyCommand.class,
            UserCommand.class,
            CompletionCommand.class,
            CommandLine.HelpCommand.class
        },
        footerHeading = "%nEnvironment:%n",
        footer = {
            "  FERRY_API    the API's base URL when --api is not given",
            "               (default " + FerryCli.DEFAULT_API + ")",
            "  FERRY_TOKEN  the API token; else $FERRY_HOME/cli-token (ferry login),",
            "               else $FERRY_HOME/token (a local ferry-server's admin token)",
            "  FERRY_HOME   Ferry's per-user directory (default ~/.ferry)",
            "",
            "Exit codes: 0 success; 1 API or network error, or a task that did not succeed;",
            "2 usage error; 4 not logged in or not allowed (HTTP 401/403).",
            "",
            "Example:",
            "  ferry login && ferry scp -r site#a:/data/run1 site#b:/archive/"
        })
public final class FerryCli implements Runnable {
    /** The API URL used when neither {@code --api} nor {@code FERRY_API} is given. */
    public static final String DEFAULT_API = "http://127.0.0.1:8080";

    private final CliEnvironment environment;
    private final ObjectMapper mapper = JsonMapper.builder().build();

    @Spec
    private CommandSpec spec;

    // INHERIT: the global options may also be written after the subcommand (ferry ls -F json x).
    @Option(
            names = "--api",
            paramLabel = "URL",
            scope = ScopeType.INHERIT,
            description = "Ferry API base URL (default: $FERRY_API, else " + DEFAULT_API + ").")
    void api(String url) {
        // over ferry-server's SSH port the commands call that server's own API with the user's
        // session token: another URL would send the token, and the server's requests, elsewhere
        if (!environment.localFiles()) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), "--api cannot be given over SSH: the commands call this server's API");
        }
        this.api = url;
    }

    private String api;

    @Option(
            names = {"-F", "--format"},
            paramLabel = "FORMAT",
            scope = ScopeType.INHERIT,
            converter = FormatConverter.class,
            description =
                    "Output format: text (default), json (the API's JSON) or unix " + "(tab-separated, no headers).")
    private OutputFormat format = OutputFormat.TEXT;

    /** Creates the command for the real machine: {@link CliEnvironment#system()}. */
    public FerryCli() {
        this(CliEnvironment.system());
    }

    /**
     * Creates the command over a given environment (tests pass a fake one).
     *
     * @param environment the environment variables, home directory, stdin and console state
     */
    public FerryCli(CliEnvironment environment) {
        this.environment = environment;
    }

    /**
     * Runs the command line and exits with its exit code.
     *
     * @param args the command line arguments
     */
    public static void main(String[] args) {
        System.exit(run(CliEnvironment.system(), System.out, System.err, args));
    }

    /**
     * Runs the command line with output in UTF-8, whatever the locale: Java 17 otherwise encodes
     * for the platform's charset, which is ASCII under the POSIX locale of CI machines and
     * services, and file names such as {@code données} would print as {@code donn?es}.
     *
     * @param environment the environment to run in
     * @param out standard output
     * @param err standard error
     * @param args the command line arguments
     * @return the exit code (0 success, 1 API or network error, 2 usage error)
     */
    public static int run(CliEnvironment environment, OutputStream out, OutputStream err, String... args) {
        CommandLine commandLine = commandLine(environment);
        commandLine.setOut(new PrintWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), true));
        commandLine.setErr(new PrintWriter(new OutputStreamWriter(err, StandardCharsets.UTF_8), true));
        return commandLine.execute(args);
    }

    /**
     * The command tree with Ferry's parser settings (repeated {@code --include}/{@code --exclude}
     * keep their order, so later occurrences of an option may not be refused).
     *
     * @param environment the environment to run in
     * @return the command line
     */
    public static CommandLine commandLine(CliEnvironment environment) {
        return new CommandLine(new FerryCli(environment)).setOverwrittenOptionsAllowed(true);
    }

    /** Without a subcommand there is nothing to do: a usage error (exit code 2). */
    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "Missing required subcommand");
    }

    /** @return the environment the CLI runs in */
    public CliEnvironment environment() {
        return environment;
    }

    /** @return the JSON mapper shared by the commands of this run */
    public ObjectMapper mapper() {
        return mapper;
    }

    /** @return the output format chosen with {@code -F} */
    public OutputFormat format() {
        return format;
    }

    /**
     * The API base URL: {@code --api}, else {@code $FERRY_API}, else {@link #DEFAULT_API}.
     *
     * @return the base URL
     */
    public String apiUrl() {
        if (api != null && !api.isBlank()) {
            return api;
        }
        String fromEnv = environment.get("FERRY_API");
        return fromEnv != null ? fromEnv : DEFAULT_API;
    }

    /** @return where the token comes from */
    public TokenSource tokenSource() {
        return new TokenSource(environment);
    }

    /**
     * A client of the API at {@link #apiUrl()} with the discovered token.
     *
     * @return a new client
     */
    public FerryApiClient client() {
        return new FerryApiClient(apiUrl(), tokenSource().token(), mapper);
    }

    /** Accepts {@code text}, {@code json}, {@code unix} in any letter case. */
    static final class FormatConverter implements CommandLine.ITypeConverter<OutputFormat> {
        @Override
        public OutputFormat convert(String value) {
            try {
                return OutputFormat.valueOf(value.trim().toUpperCase(java.util.Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException("expected text, json or unix but was '" + value + "'");
            }
        }
    }
}
