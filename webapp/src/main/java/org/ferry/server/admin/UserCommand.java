package org.ferry.server.admin;

import java.io.BufferedReader;
import java.io.Console;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.ferry.api.domain.Role;
import org.ferry.api.domain.UserAccount;
import org.ferry.api.error.FerryException;
import org.ferry.api.identity.AccessTokenService;
import org.ferry.api.identity.AccountService;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.context.ConfigurableApplicationContext;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code ferry-server user add|list|disable|enable|passwd|token}: manages accounts directly in
 * the server's database ({@code FERRY_HOME}), for the first users and for recovery. With the
 * embedded H2 database the server must be stopped (H2 keeps its file to one process); a running
 * server's accounts are managed over REST by an admin ({@code ferry user ...}).
 *
 * <p>Exit codes: 0 done, 1 refused or failed (message on stderr), 2 usage error.
 */
@Command(
        name = "user",
        mixinStandardHelpOptions = true,
        description = "Manage Ferry accounts in FERRY_HOME's database (stop the server first when it uses the "
                + "embedded H2 database).",
        subcommands = {
            UserCommand.Add.class,
            UserCommand.ListUsers.class,
            UserCommand.Disable.class,
            UserCommand.Enable.class,
            UserCommand.Passwd.class,
            UserCommand.Token.class
        },
        footer = {"", "Example: ferry-server user add alice", "Exit codes: 0 done, 1 refused or failed, 2 usage error."
        })
public final class UserCommand implements Runnable {

    @Spec
    CommandLine.Model.CommandSpec spec;

    private final String[] springArgs;
    private ConfigurableApplicationContext context;

    private UserCommand(String[] springArgs) {
        this.springArgs = springArgs;
    }

    /**
     * Runs {@code user ...}.
     *
     * @param args the arguments after {@code user}; {@code --name=value} arguments are Spring
     *     properties (e.g. {@code --ferry.home=DIR})
     * @return the exit code
     */
    public static int run(String[] args) {
        String[] spring = Arrays.stream(args)
                .filter(a -> a.startsWith("--") && a.contains("="))
                .toArray(String[]::new);
        String[] own = Arrays.stream(args)
                .filter(a -> !(a.startsWith("--") && a.contains("=")))
                .toArray(String[]::new);
        UserCommand command = new UserCommand(spring);
        // Spring's console log goes to System.out; the command's own output (a token piped into
        // a file, a list read by a script) must be alone on standard output, so the log is sent
        // to standard error for the life of this command.
        PrintStream stdout = System.out;
        System.setOut(System.err);
        try {
            return new CommandLine(command)
                    .setOut(new PrintWriter(new OutputStreamWriter(stdout, StandardCharsets.UTF_8), true))
                    .setExecutionExceptionHandler((e, line, parsed) -> {
                        line.getErr().println("ferry-server user: " + message(e));
                        return 1;
                    })
                    .execute(own);
        } finally {
            if (command.context != null) {
                command.context.close();
            }
            System.setOut(stdout);
        }
    }

    private static String message(Exception e) {
        Throwable cause = e;
        while (cause.getCause() != null && !(cause instanceof FerryException)) {
            if (cause.getMessage() != null && cause.getMessage().contains("Database may be already in use")) {
                return "the database in FERRY_HOME is in use by a running ferry-server; stop it first, or manage "
                        + "accounts over REST as an admin (ferry user ...)";
            }
            cause = cause.getCause();
        }
        return cause.getMessage();
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(
                spec.commandLine(), "Missing subcommand: add, list, disable, enable, passwd or token");
    }

    private <T> T bean(Class<T> type) {
        if (context == null) {
            SpringApplication application = new SpringApplication(UserAdminApplication.class);
            application.setWebApplicationType(WebApplicationType.NONE);
            application.setBannerMode(org.springframework.boot.Banner.Mode.OFF);
            application.setLogStartupInfo(false);
            application.setDefaultProperties(java.util.Map.of("logging.level.root", "WARN"));
            context = application.run(springArgs);
        }
        return context.getBean(type);
    }

    private static String readPassword(PrintWriter err, boolean fromStdin) {
        try {
            if (fromStdin) {
                String line = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
                if (line == null) {
                    throw new CommandLine.PicocliException("no password on standard input");
                }
                return line;
            }
        } catch (IOException e) {
            throw new CommandLine.PicocliException("cannot read standard input: " + e.getMessage());
        }
        Console console = System.console();
        if (console == null) {
            throw new CommandLine.PicocliException("no terminal to ask for the password: use --password-stdin");
        }
        char[] first = console.readPassword("Password: ");
        char[] second = console.readPassword("Password again: ");
        if (first == null || second == null || !Arrays.equals(first, second)) {
            throw new CommandLine.PicocliException("the passwords differ");
        }
        return new String(first);
    }

    /** What every subcommand has: the parent's Spring context, its output, and its services. */
    abstract static class Subcommand implements Callable<Integer> {
        @ParentCommand
        UserCommand parent;

        @Spec
        CommandLine.Model.CommandSpec spec;

        AccountService accounts() {
            return parent.bean(AccountService.class);
        }

        AccessTokenService tokens() {
            return parent.bean(AccessTokenService.class);
        }

        PrintWriter out() {
            return spec.commandLine().getOut();
        }

        PrintWriter err() {
            return spec.commandLine().getErr();
        }

        static String role(UserAccount account) {
            return account.getRole().name().toLowerCase(Locale.ROOT);
        }
    }

    /** A subcommand of one account, named by its first parameter. */
    abstract static class OfOneAccount extends Subcommand {
        @Parameters(index = "0", paramLabel = "NAME", description = "User name (letters, digits, . _ -).")
        String name;
    }

    /** {@code user add NAME [--admin] [--password-stdin | --no-password] [--token] [--email ADDRESS]}. */
    @Command(
            name = "add",
            mixinStandardHelpOptions = true,
            description = "Create an account; asks for its password.",
            footer = {"", "Example: ferry-server user add alice --admin"})
    static final class Add extends OfOneAccount {
        @Option(names = "--admin", description = "Give it the admin role.")
        boolean admin;

        @Option(names = "--password-stdin", description = "Read the password from the first line of standard input.")
        boolean passwordStdin;

        @Option(names = "--no-password", description = "No password (it logs in with a token, a certificate or OIDC).")
        boolean noPassword;

        @Option(names = "--token", description = "Also make an access token for it and print it.")
        boolean token;

        @Option(
                names = "--email",
                paramLabel = "ADDRESS",
                description = "Its e-mail address: where its tasks' notifications go.")
        String email;

        @Override
        public Integer call() {
            String password = noPassword ? null : readPassword(err(), passwordStdin);
            UserAccount account = accounts().create(name, admin ? Role.ADMIN : Role.USER, password);
            if (email != null) {
                account = accounts().setEmail(name, email);
            }
            out().println("Created " + role(account) + " " + account.getName());
            if (token) {
                out().println(tokens().create(AccountService.caller(account), "made by ferry-server user add", null)
                        .token());
            }
            return 0;
        }
    }

    /** {@code user list}. */
    @Command(
            name = "list",
            mixinStandardHelpOptions = true,
            description = "List the accounts: name, role, state.",
            footer = {"", "Example: ferry-server user list"})
    static final class ListUsers extends Subcommand {
        @Override
        public Integer call() {
            for (UserAccount account : accounts().list()) {
                out().println(account.getName() + "\t" + role(account) + "\t"
                        + (account.isDisabled() ? "disabled" : "enabled")
                        + (account.getPasswordHash() == null ? "\tno-password" : "\tpassword"));
            }
            return 0;
        }
    }

    /** An account's disabled flag set one way; its subclasses name the way. */
    abstract static class SetDisabled extends OfOneAccount {
        private final boolean disabled;
        private final String done;

        SetDisabled(boolean disabled, String done) {
            this.disabled = disabled;
            this.done = done;
        }

        @Override
        public Integer call() {
            accounts().update(name, disabled, null, null);
            out().println(done + " " + name);
            return 0;
        }
    }

    /** {@code user disable NAME}. */
    @Command(
            name = "disable",
            mixinStandardHelpOptions = true,
            description = "Disable an account: its passwords, tokens and certificates stop working.",
            footer = {"", "Example: ferry-server user disable alice"})
    static final class Disable extends SetDisabled {
        Disable() {
            super(true, "Disabled");
        }
    }

    /** {@code user enable NAME}. */
    @Command(
            name = "enable",
            mixinStandardHelpOptions = true,
            description = "Enable a disabled account again.",
            footer = {"", "Example: ferry-server user enable alice"})
    static final class Enable extends SetDisabled {
        Enable() {
            super(false, "Enabled");
        }
    }

    /** {@code user passwd NAME [--password-stdin]}. */
    @Command(
            name = "passwd",
            mixinStandardHelpOptions = true,
            description = "Set an account's password.",
            footer = {"", "Example: ferry-server user passwd admin"})
    static final class Passwd extends OfOneAccount {
        @Option(names = "--password-stdin", description = "Read the password from the first line of standard input.")
        boolean passwordStdin;

        @Override
        public Integer call() {
            accounts().update(name, null, null, readPassword(err(), passwordStdin));
            out().println("Password of " + name + " changed");
            return 0;
        }
    }

    /** {@code user token NAME}: prints a new access token (e.g. when the admin's token file was lost). */
    @Command(
            name = "token",
            mixinStandardHelpOptions = true,
            description = "Make an access token for an account and print it (it never expires; revoke it over REST).",
            footer = {"", "Example: ferry-server user token admin > ~/.ferry/token"})
    static final class Token extends OfOneAccount {
        @Override
        public Integer call() {
            UserAccount account = accounts().get(name);
            out().println(tokens().create(AccountService.caller(account), "made by ferry-server user token", null)
                    .token());
            return 0;
        }
    }
}
