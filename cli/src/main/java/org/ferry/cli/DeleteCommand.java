package org.ferry.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code ferry delete ENDPOINT:PATH... [-r] [--ignore-missing] [--batch FILE|-]}: submits a
 * delete task ({@code POST /v0.10/delete}) and prints its id, without waiting (see
 * {@code ferry rm} for the waiting form).
 */
@Command(
        name = "delete",
        mixinStandardHelpOptions = true,
        versionProvider = FerryVersion.class,
        sortOptions = false,
        description = "Submit a task deleting files or directories (-r) on an endpoint; prints the task id.",
        footerHeading = "%nExamples:%n",
        footer = {
            "  ferry delete -r admin#a:/scratch/run1",
            "  ferry delete admin#a:/scratch --batch old-files.txt   (one path per line)"
        })
public final class DeleteCommand extends ApiCommand {
    @Parameters(
            arity = "1..*",
            paramLabel = "ENDPOINT:PATH",
            converter = EndpointPath.Converter.class,
            description = "Paths to delete, all on one endpoint (with --batch: ENDPOINT[:PREFIX]).")
    List<EndpointPath> targets;

    @Option(
            names = {"-r", "--recursive"},
            description = "Delete directories with their contents.")
    boolean recursive;

    @Option(
            names = {"-f", "--ignore-missing"},
            description = "A missing path is no error.")
    boolean ignoreMissing;

    @Option(names = "--batch", paramLabel = "FILE|-", description = "Read paths from FILE (or - for standard input).")
    String batch;

    @Option(names = "--label", paramLabel = "TEXT", description = "A label for the task.")
    String label;

    @Option(
            names = "--deadline",
            paramLabel = "TIME",
            converter = TimeArguments.DeadlineConverter.class,
            description = "Give up at TIME: ISO-8601 with an offset or +DURATION (default: 24 hours).")
    String deadline;

    @Option(names = "--submission-id", paramLabel = "ID", description = "Idempotency key.")
    String submissionId;

    @Option(names = "--dry-run", description = "Print the delete document instead of submitting it.")
    boolean dryRun;

    /** @return 0 once the task is accepted */
    @Override
    protected int execute() {
        ObjectNode body = document();
        if (dryRun) {
            printJson(body);
            return 0;
        }
        SubmissionOutput.print(this, client().post("/delete", body));
        return 0;
    }

    /** @return the delete document of the arguments */
    private ObjectNode document() {
        String endpoint = oneEndpoint(spec().commandLine(), targets, batch == null);
        return document(root().mapper(), endpoint, paths(), recursive, ignoreMissing, label, deadline, submissionId);
    }

    /**
     * @param line the command, for usage errors
     * @param targets ENDPOINT:PATH arguments
     * @param pathsRequired whether each needs a path
     * @return their one endpoint
     * @throws CommandLine.ParameterException when they name several, or lack a path
     */
    static String oneEndpoint(CommandLine line, List<EndpointPath> targets, boolean pathsRequired) {
        String endpoint = targets.get(0).endpoint();
        for (EndpointPath t : targets) {
            if (!t.endpoint().equals(endpoint)) {
                throw new CommandLine.ParameterException(line, "all paths must be on one endpoint");
            }
            if (pathsRequired && t.path() == null) {
                throw new CommandLine.ParameterException(line, t.endpoint() + ": needs a path, ENDPOINT:PATH");
            }
        }
        return endpoint;
    }

    /**
     * @return a delete document
     */
    static ObjectNode document(
            tools.jackson.databind.ObjectMapper mapper,
            String endpoint,
            List<String> paths,
            boolean recursive,
            boolean ignoreMissing,
            String label,
            String deadline,
            String submissionId) {
        ObjectNode body = mapper.createObjectNode();
        body.put("DATA_TYPE", "delete");
        if (submissionId != null) {
            body.put("submission_id", submissionId);
        }
        body.put("endpoint", endpoint);
        if (label != null) {
            body.put("label", label);
        }
        if (deadline != null) {
            body.put("deadline", deadline);
        }
        body.put("recursive", recursive);
        body.put("ignore_missing", ignoreMissing);
        ArrayNode items = body.putArray("DATA");
        for (String path : paths) {
            ObjectNode item = items.addObject();
            item.put("DATA_TYPE", "delete_item");
            item.put("path", path);
        }
        return body;
    }

    private List<String> paths() {
        if (batch == null) {
            return targets.stream().map(EndpointPath::path).toList();
        }
        if (targets.size() != 1) {
            throw usage("with --batch give one ENDPOINT[:PREFIX]");
        }
        String prefix = targets.get(0).path();
        List<String> paths = new ArrayList<>();
        try (BufferedReader reader = batch.equals("-")
                ? new BufferedReader(new InputStreamReader(root().environment().stdin(), StandardCharsets.UTF_8))
                : Files.newBufferedReader(
                        root().environment().localFile(batch, spec().commandLine()), StandardCharsets.UTF_8)) {
            for (BatchLines.Line line : BatchLines.read(reader)) {
                if (line.words().size() != 1) {
                    throw usage("--batch line " + line.number() + ": expected one path");
                }
                String path = line.words().get(0);
                if (prefix == null && !path.startsWith("/")) {
                    throw usage("--batch line " + line.number() + ": " + path + " must be absolute without a prefix");
                }
                paths.add(prefix == null ? path : prefix.replaceFirst("/+$", "") + "/" + path.replaceFirst("^/+", ""));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the batch file " + batch, e);
        } catch (IllegalArgumentException e) {
            throw usage("--batch " + batch + ": " + e.getMessage());
        }
        if (paths.isEmpty()) {
            throw usage("--batch " + batch + " holds no paths");
        }
        return paths;
    }

    private CommandLine.ParameterException usage(String message) {
        return new CommandLine.ParameterException(spec().commandLine(), message);
    }
}
