package org.ferry.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.ferry.cli.api.ApiException;
import org.ferry.cli.api.FerryApiClient;
import org.ferry.cli.output.Json;
import org.ferry.cli.output.OutputFormat;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code ferry scp [-r] [-p] [-q] SRC... DST}: copies as scp does, so a script using scp can
 * switch: a source goes to DST itself, or inside DST when DST is an existing directory (or ends
 * with {@code /}); several sources need a directory; a directory source needs {@code -r}. It
 * submits one transfer task (checksums verified), waits for it with progress on stderr, and
 * exits 0 when it succeeded, 1 when not.
 *
 * <p>scp's {@code -B} (batch mode) and {@code -v} are accepted (ferry never prompts; -v prints
 * the task id); its other options (ports, ciphers, identity files, ...) have no meaning here and
 * are usage errors.
 */
@Command(
        name = "scp",
        mixinStandardHelpOptions = true,
        versionProvider = FerryVersion.class,
        sortOptions = false,
        description = {
            "Copy files and directories between endpoints with scp's syntax, and wait until done.",
            "SRC and DST are ENDPOINT:PATH; all sources on one endpoint."
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  ferry scp site#a:/data/run1/results.h5 site#b:/archive/",
            "  ferry scp -r -p site#a:/data/run1 site#b:/archive/   (-p: keep modification times)"
        })
public final class ScpCommand extends ApiCommand {
    @Parameters(
            arity = "2..*",
            paramLabel = "ENDPOINT:PATH",
            converter = EndpointPath.Converter.class,
            description = "Sources, then the destination, each ENDPOINT:PATH.")
    private List<EndpointPath> paths;

    @Option(names = "-r", description = "Copy directories recursively.")
    private boolean recursive;

    @Option(names = "-p", description = "Preserve modification times (sends preserve_timestamp).")
    private boolean preserve;

    @Option(names = "-q", description = "Quiet: no progress.")
    private boolean quiet;

    @Option(names = "-v", description = "Verbose: print the task id before waiting.")
    private boolean verbose;

    @Option(names = "-B", description = "Batch mode (accepted for scp compatibility; ferry never prompts).")
    private boolean batchMode;

    /** @return 0 when the copy succeeded, 1 when not */
    @Override
    protected int execute() {
        List<EndpointPath> sources = paths.subList(0, paths.size() - 1);
        EndpointPath target = paths.get(paths.size() - 1);
        for (EndpointPath p : paths) {
            if (p.path() == null) {
                throw usage(p.endpoint() + ": needs a path, ENDPOINT:PATH");
            }
        }
        String sourceEndpoint = sources.get(0).endpoint();
        for (EndpointPath s : sources) {
            if (!s.endpoint().equals(sourceEndpoint)) {
                throw usage("all sources must be on one endpoint; run one ferry scp per source endpoint");
            }
        }
        boolean intoDirectory = target.path().endsWith("/") || "dir".equals(type(target));
        if (sources.size() > 1 && !intoDirectory) {
            err().println("ferry scp: " + target.endpoint() + ":" + target.path() + ": not a directory");
            return EXIT_ERROR;
        }
        ObjectNode body = root().mapper().createObjectNode();
        body.put("DATA_TYPE", "transfer");
        body.put("source_endpoint", sourceEndpoint);
        body.put("destination_endpoint", target.endpoint());
        body.put("label", "ferry scp");
        body.put("verify_checksum", true);
        if (preserve) {
            body.put("preserve_timestamp", true);
        }
        ArrayNode items = body.putArray("DATA");
        for (EndpointPath s : sources) {
            String type = type(s);
            if (type == null) {
                err().println("ferry scp: " + s.endpoint() + ":" + s.path() + ": No such file or directory");
                return EXIT_ERROR;
            }
            boolean directory = "dir".equals(type);
            if (directory && !recursive) {
                err().println("ferry scp: " + s.endpoint() + ":" + s.path() + ": not a regular file (use -r)");
                return EXIT_ERROR;
            }
            String destination = intoDirectory ? child(target.path(), name(s.path())) : target.path();
            ObjectNode item = items.addObject();
            item.put("DATA_TYPE", "transfer_item");
            item.put("source_path", s.path());
            item.put("destination_path", destination);
            item.put("recursive", directory);
        }
        JsonNode result = client().post("/transfer", body);
        String taskId = Json.text(result, "task_id");
        if (verbose) {
            err().println("Task ID: " + taskId);
            err().flush();
        }
        TaskWaiter.Outcome outcome = WaitCommand.await(this, taskId, null, 1, quiet);
        if (!quiet || format() != OutputFormat.TEXT || !outcome.succeeded()) {
            WaitCommand.printFinal(this, taskId, outcome.task());
        }
        return outcome.succeeded() ? 0 : EXIT_ERROR;
    }

    /** @return {@code file}, {@code dir}, ... or null when the path does not exist */
    private String type(EndpointPath path) {
        try {
            return Json.text(
                    client().get(
                                    "/operation/endpoint/" + FerryApiClient.segment(path.endpoint()) + "/stat",
                                    Map.of("path", path.path())),
                    "type");
        } catch (ApiException e) {
            if (e.httpStatus() == 404 && "path".equals(e.field())) {
                return null;
            }
            throw e;
        }
    }

    private static String name(String path) {
        String trimmed = path.length() > 1 && path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
        return trimmed.substring(trimmed.lastIndexOf('/') + 1);
    }

    private static String child(String directory, String name) {
        return directory.endsWith("/") ? directory + name : directory + "/" + name;
    }

    private CommandLine.ParameterException usage(String message) {
        return new CommandLine.ParameterException(spec().commandLine(), message);
    }

    /** @return the paths, for tests */
    List<EndpointPath> paths() {
        return new ArrayList<>(paths);
    }
}
