package org.ferry.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.util.concurrent.Callable;
import org.ferry.cli.api.ApiException;
import org.ferry.cli.api.ApiUnreachableException;
import org.ferry.cli.api.FerryApiClient;
import org.ferry.cli.output.OutputFormat;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import tools.jackson.databind.JsonNode;

/**
 * Base of the commands that call the API: turns API and network errors into one message on
 * stderr and exit code 1, so each command only describes its success path.
 *
 * <p>Error output: {@code Error: <code>: <message>} and, when the API names the offending
 * field, a second line {@code Field: <field>}.
 */
public abstract class ApiCommand implements Callable<Integer> {
    /** Exit code of API, network and I/O errors, and of tasks that did not succeed. */
    public static final int EXIT_ERROR = 1;
    /** Exit code of usage errors (picocli's). */
    public static final int EXIT_USAGE = 2;
    /** Exit code when the API refused the credentials (401) or the right (403). */
    public static final int EXIT_AUTH = 4;

    @Spec
    private CommandSpec spec;

    /**
     * Runs {@link #execute()} and reports its errors.
     *
     * @return the exit code
     */
    @Override
    public final Integer call() {
        try {
            return execute();
        } catch (ApiException e) {
            PrintWriter err = err();
            err.println("Error: " + e.code() + ": " + e.getMessage());
            if (e.field() != null) {
                err.println("Field: " + e.field());
            }
            if (e.httpStatus() == 401) {
                err.println(
                        root().tokenSource().token() == null
                                ? "No token found: run 'ferry login', set FERRY_TOKEN, or write a token to "
                                        + root().tokenSource().loginFile()
                                : "The token was refused ("
                                        + root().tokenSource().origin() + "): run 'ferry login'");
            }
            err.flush();
            return e.httpStatus() == 401 || e.httpStatus() == 403 ? EXIT_AUTH : EXIT_ERROR;
        } catch (ApiUnreachableException e) {
            err().println("Error: " + e.getMessage());
            err().flush();
            return EXIT_ERROR;
        } catch (UncheckedIOException e) {
            err().println("Error: " + describe(e));
            err().flush();
            return EXIT_ERROR;
        }
    }

    /**
     * A wrapped I/O error in words: the wrapper's own message, when it has one, says what the
     * command was doing ({@code cannot write the token file F}); the cause says what went wrong.
     *
     * @param e the error
     * @return one line for standard error, e.g. {@code cannot delete F: permission denied: F}
     */
    static String describe(UncheckedIOException e) {
        String cause = describe(e.getCause());
        // UncheckedIOException(cause) takes the cause's toString() as its message: no context
        return e.getMessage() == null || e.getMessage().equals(e.getCause().toString())
                ? cause
                : e.getMessage() + ": " + cause;
    }

    /**
     * An I/O error in words, without the exception's class name that its {@code toString()} puts
     * first: a missing or unreadable file named as such, anything else by its own message.
     *
     * @param cause the error
     * @return one line for standard error
     */
    static String describe(IOException cause) {
        if (cause instanceof NoSuchFileException missing) {
            return "no such file: " + missing.getFile();
        }
        if (cause instanceof AccessDeniedException denied) {
            return "permission denied: " + denied.getFile();
        }
        return cause.getMessage() != null ? cause.getMessage() : cause.toString();
    }

    /**
     * The command's work.
     *
     * @return the exit code
     * @throws ApiException on an API error answer
     * @throws ApiUnreachableException when the API cannot be reached
     */
    protected abstract int execute();

    /** @return the {@code ferry} command, holder of the global options */
    protected FerryCli root() {
        return (FerryCli) spec.root().userObject();
    }

    /** @return this command's model, for usage errors */
    protected CommandSpec spec() {
        return spec;
    }

    /** @return a client of the API */
    protected FerryApiClient client() {
        return root().client();
    }

    /** @return the chosen output format */
    protected OutputFormat format() {
        return root().format();
    }

    /** @return standard output */
    protected PrintWriter out() {
        return spec.commandLine().getOut();
    }

    /** @return standard error */
    protected PrintWriter err() {
        return spec.commandLine().getErr();
    }

    /**
     * Prints a JSON document pretty-printed on stdout ({@code -F json}).
     *
     * @param node the document
     */
    protected void printJson(JsonNode node) {
        out().println(root().mapper().writerWithDefaultPrettyPrinter().writeValueAsString(node));
        out().flush();
    }
}
