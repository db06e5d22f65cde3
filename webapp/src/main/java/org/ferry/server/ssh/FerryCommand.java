package org.ferry.server.ssh;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import org.apache.sshd.server.Environment;
import org.apache.sshd.server.ExitCallback;
import org.apache.sshd.server.channel.ChannelSession;
import org.apache.sshd.server.command.Command;
import org.ferry.api.identity.AccessTokenService;
import org.ferry.api.identity.Caller;
import org.ferry.cli.CliEnvironment;
import org.ferry.cli.FerryCli;

/**
 * One {@code ferry} command run for an SSH user (an RFC 4254 section 6.5 "exec" request): the
 * command string split into words ({@link CommandWords}, never a shell), then the CLI's own
 * Picocli command tree run on a thread of its own against this server's REST API, as the signed-in
 * account (a session token that lives only while the command runs). Standard output, standard
 * error and the exit status are the CLI's. A leading {@code ferry} word is dropped, so
 * {@code ssh host ferry ls ...} and {@code ssh host ls ...} are the same. Commands about the
 * local machine ({@code login}, {@code logout}, {@code completion}) are refused with exit code 2.
 */
final class FerryCommand implements Command {

    /** The exit code of a usage error (as the CLI's). */
    static final int EXIT_USAGE = 2;

    private static final Set<String> LOCAL_ONLY = Set.of("login", "logout", "completion");

    private final String command;
    private final Caller caller;
    private final AccessTokenService tokens;
    private final String apiUrl;
    private final ExecutorService executor;
    private InputStream in;
    private OutputStream out;
    private OutputStream err;
    private ExitCallback exit;
    private Future<?> running;

    /**
     * @param command the command string the client sent
     * @param caller the signed-in account
     * @param tokens makes the session token
     * @param apiUrl this server's API base URL
     * @param executor runs the command
     */
    FerryCommand(String command, Caller caller, AccessTokenService tokens, String apiUrl, ExecutorService executor) {
        this.command = command;
        this.caller = caller;
        this.tokens = tokens;
        this.apiUrl = apiUrl;
        this.executor = executor;
    }

    @Override
    public void setInputStream(InputStream in) {
        this.in = in;
    }

    @Override
    public void setOutputStream(OutputStream out) {
        this.out = out;
    }

    @Override
    public void setErrorStream(OutputStream err) {
        this.err = err;
    }

    @Override
    public void setExitCallback(ExitCallback callback) {
        this.exit = callback;
    }

    @Override
    public void start(ChannelSession channel, Environment env) {
        running = executor.submit(this::run);
    }

    @Override
    public void destroy(ChannelSession channel) {
        // the client went away: stop waiting for the API (ferry wait, long listings)
        if (running != null) {
            running.cancel(true);
        }
    }

    private void run() {
        int code;
        try {
            code = execute();
        } catch (RuntimeException e) {
            message("Error: " + e.getMessage());
            code = 1;
        }
        try {
            out.flush();
            err.flush();
        } catch (IOException e) {
            // the client is gone; the exit status below is dropped with the channel
        }
        exit.onExit(code);
    }

    private int execute() {
        List<String> words;
        try {
            words = new ArrayList<>(CommandWords.split(command));
        } catch (IllegalArgumentException e) {
            message("ferry: cannot read the command: " + e.getMessage());
            return EXIT_USAGE;
        }
        if (!words.isEmpty() && words.get(0).equals("ferry")) {
            words.remove(0);
        }
        if (!words.isEmpty() && LOCAL_ONLY.contains(words.get(0))) {
            message("ferry: '" + words.get(0) + "' is for the ferry command on your own machine; over SSH your key"
                    + " signs you in and every other command works as it does there");
            return EXIT_USAGE;
        }
        try (AccessTokenService.SessionToken token = tokens.openSession(caller)) {
            return FerryCli.run(
                    CliEnvironment.remote(apiUrl, token.token(), in), out, err, words.toArray(String[]::new));
        }
    }

    private void message(String text) {
        PrintStream stream = new PrintStream(err, true, StandardCharsets.UTF_8);
        stream.println(text);
        stream.flush();
    }
}
