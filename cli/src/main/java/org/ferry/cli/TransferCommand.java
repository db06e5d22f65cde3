package org.ferry.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.ferry.cli.api.ApiException;
import org.ferry.cli.api.FerryApiClient;
import org.ferry.cli.output.Json;
import org.ferry.cli.output.OutputFormat;
import org.ferry.cli.output.Table;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code ferry transfer SRC DST [options]} or {@code ferry transfer [SRC DST] --batch FILE|-}:
 * submits a transfer task ({@code POST /v0.10/transfer}) with globus-cli's options.
 *
 * <p>Without {@code -r}/{@code --no-recursive} a single item is made recursive when its source
 * is a directory (asked with {@code stat}). Batch lines are {@code [--recursive|-r|--no-recursive]
 * SRC DST} with shell quoting, {@code #} comments and blank lines; the command line's paths, when
 * given, are prefixes of the lines' paths. Options the server cannot honour for the endpoints
 * ({@code --encrypt} on clear-text ones) are sent, and the server's 400 names them.
 *
 * <p>Output: text {@code Message: ...} and {@code Task ID: <uuid>}; unix the task id alone (for
 * {@code id=$(ferry -F unix transfer ...)}); json the transfer_result. {@code --dry-run} asks the
 * server ({@code POST /transfer/dry_run}) what would be copied, skipped, excluded and deleted and
 * prints it, changing nothing; {@code --print-document} prints the transfer document without
 * asking the server. {@code --wait} then waits in the same process as {@code ferry wait} does
 * (its options, progress, final line and exit codes, after the submission's output; json: the
 * final task document alone).
 */
@Command(
        name = "transfer",
        mixinStandardHelpOptions = true,
        versionProvider = FerryVersion.class,
        sortOptions = false,
        description = {
            "Submit a transfer task between two endpoints. Follow it with: ferry wait <id>, or add --wait.",
            "A source file is written to exactly DST; a recursive source's contents go inside DST."
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  ferry transfer -r admin#a:/data/run1 admin#b:/archive/run1 --label 'run 1' --deadline +6h",
            "  ferry transfer admin#a:/data admin#b:/archive --batch files.txt   (lines: [-r] SRC DST)",
            "  id=$(ferry -F unix transfer admin#a:/f admin#b:/g) && ferry wait \"$id\"",
            "  ferry transfer -r admin#a:/data admin#b:/copy --wait --timeout 3600   (exit 0 when SUCCEEDED)"
        })
public final class TransferCommand extends ApiCommand {
    @Parameters(
            index = "0",
            arity = "0..1",
            paramLabel = "SRC",
            converter = EndpointPath.Converter.class,
            description = "Source ENDPOINT:PATH (with --batch: ENDPOINT[:PREFIX]).")
    private EndpointPath source;

    @Parameters(
            index = "1",
            arity = "0..1",
            paramLabel = "DST",
            converter = EndpointPath.Converter.class,
            description = "Destination ENDPOINT:PATH (with --batch: ENDPOINT[:PREFIX]).")
    private EndpointPath destination;

    @Option(
            names = "--batch",
            paramLabel = "FILE|-",
            description =
                    "Read items from FILE (or - for standard input): lines [-r|--recursive|--no-recursive] SRC DST.")
    private String batch;

    @Option(
            names = {"-r", "--recursive"},
            negatable = true,
            description = "SRC is a directory: copy its tree (--no-recursive: a file). Default: ask the endpoint.")
    private Boolean recursive;

    @Mixin
    private TransferOptions options;

    @Option(
            names = "--external-checksum",
            paramLabel = "HEX",
            description = "The source file's checksum (in --checksum-algorithm): the destination's must equal it,"
                    + " else the file fails (EXTERNAL_CHECKSUM_MISMATCH). A single file item only.")
    private String externalChecksum;

    @Option(
            names = "--also-to",
            paramLabel = "ENDPOINT",
            description = "Multicast (a Ferry extension): send every file to ENDPOINT too, at the same path as on DST,"
                    + " the source read once; repeat for more (at most 15). DST's server must forward"
                    + " (ferry-gridftp --multicast).")
    private List<String> alsoTo = new java.util.ArrayList<>();

    @Option(
            names = "--fail-on-quota-errors",
            description = "Fail the task at once when the destination is full or over quota"
                    + " (by default it waits for space until its deadline).")
    private boolean failOnQuotaErrors;

    @Option(
            names = "--deadline",
            paramLabel = "TIME",
            converter = TimeArguments.DeadlineConverter.class,
            description = "Give up at TIME: ISO-8601 with an offset, or +DURATION from now (e.g. +6h, +1d12h).")
    private String deadline;

    @Option(names = "--label", paramLabel = "TEXT", description = "A label for the task (at most 128 characters).")
    private String label;

    @Option(
            names = "--notify",
            paramLabel = "WHEN",
            description = "E-mail when: on, off, or a list of succeeded,failed,inactive.")
    private String notify;

    @Option(
            names = "--submission-id",
            paramLabel = "ID",
            description = "Idempotency key from the API: re-submitting the same id returns the same task.")
    private String submissionId;

    @Option(
            names = "--skip-activation-check",
            description = "Submit even if an endpoint is not activated: the task waits INACTIVE until it is.")
    private boolean skipActivationCheck;

    @Option(
            names = "--dry-run",
            description = "Ask the server what the transfer would copy, skip, exclude and delete now; change nothing.")
    private boolean dryRun;

    @Option(
            names = "--print-document",
            description = "Print the transfer document instead of submitting it (no server is asked).")
    private boolean printDocument;

    @Option(
            names = "--wait",
            description = "After submitting, wait for the task to end as ferry wait does (progress on stderr;"
                    + " exit 0 only when it SUCCEEDED); with --timeout, --polling-interval, --timeout-exit-code.")
    private boolean waitForEnd;

    @Mixin
    private TaskWaitOptions waiting;

    /**
     * @return 0 once the task is accepted (or the dry run or document printed); with {@code --wait}
     *     {@code ferry wait}'s exit code
     */
    @Override
    protected int execute() {
        if (!waitForEnd && waiting.given(spec())) {
            throw usage("--timeout, --polling-interval and --timeout-exit-code go with --wait");
        }
        if (waitForEnd && (dryRun || printDocument)) {
            throw usage("--wait submits a task: not with --dry-run or --print-document");
        }
        ObjectNode body = document();
        if (printDocument) {
            printJson(body);
            return 0;
        }
        if (dryRun) {
            printDryRun(client().post("/transfer/dry_run", body));
            return 0;
        }
        JsonNode result = client().post("/transfer", body);
        if (!waitForEnd) {
            SubmissionOutput.print(this, result);
            return 0;
        }
        if (format() != OutputFormat.JSON) {
            // json prints the final task document alone, so that stdout stays one document
            SubmissionOutput.print(this, result);
        }
        return waiting.await(this, Json.text(result, "task_id"));
    }

    /** Text: one row per path (action, type, size, source, destination), then the totals. */
    private void printDryRun(JsonNode plan) {
        if (format() == OutputFormat.JSON) {
            printJson(plan);
            return;
        }
        Table table = new Table("Action", "Type", "Size", "Source", "Destination");
        for (JsonNode entry : plan.path("DATA")) {
            table.row(
                    Json.text(entry, "action"),
                    Json.text(entry, "type"),
                    Json.text(entry, "size"),
                    entry.path("source_path").isNull() ? "-" : Json.text(entry, "source_path"),
                    Json.text(entry, "destination_path"));
        }
        table.print(out(), format());
        if (format() == OutputFormat.TEXT) {
            out().println();
            out().println("Files to copy:   " + Json.text(plan, "files_to_copy") + " ("
                    + Json.text(plan, "bytes_to_copy") + " bytes)");
            out().println("Files to skip:   " + Json.text(plan, "files_to_skip"));
            out().println("Excluded:        " + Json.text(plan, "files_excluded"));
            out().println("Skipped errors:  " + Json.text(plan, "skipped_errors"));
            out().println("Paths to delete: " + Json.text(plan, "paths_to_delete"));
            if (plan.path("truncated").asBoolean()) {
                out().println("(the list above is cut short; the totals are complete)");
            }
            out().println("Dry run: nothing was changed.");
        }
        out().flush();
    }

    private ObjectNode document() {
        if (batch == null
                && (source == null || destination == null || source.path() == null || destination.path() == null)) {
            throw usage("SRC and DST need a path: ENDPOINT:PATH, e.g. admin#a:/data (or use --batch)");
        }
        if (batch != null && (source == null || destination == null)) {
            throw usage(
                    "--batch needs the two endpoints: ferry transfer SRC_ENDPOINT[:PREFIX] DST_ENDPOINT[:PREFIX] --batch FILE");
        }
        if (batch != null && recursive != null) {
            throw usage("-r/--no-recursive go on the batch lines, not on the command line, with --batch");
        }
        if (externalChecksum != null && (batch != null || Boolean.TRUE.equals(recursive))) {
            throw usage("--external-checksum is the checksum of one file: not with -r/--recursive or --batch");
        }
        ObjectNode body = root().mapper().createObjectNode();
        body.put("DATA_TYPE", "transfer");
        if (submissionId != null) {
            body.put("submission_id", submissionId);
        }
        body.put("source_endpoint", source.endpoint());
        body.put("destination_endpoint", destination.endpoint());
        if (label != null) {
            body.put("label", label);
        }
        if (deadline != null) {
            body.put("deadline", deadline);
        }
        options.write(body);
        TransferOptions.putIfTrue(body, "skip_activation_check", skipActivationCheck);
        TransferOptions.putIfTrue(body, "fail_on_quota_errors", failOnQuotaErrors);
        if (!alsoTo.isEmpty()) {
            ArrayNode further = body.putArray("ferry_additional_destination_endpoints");
            alsoTo.forEach(further::add);
        }
        notifications(body);
        ArrayNode items = body.putArray("DATA");
        if (batch == null) {
            boolean isDirectory = recursive != null ? recursive : isDirectory(source);
            ObjectNode item = item(items, source.path(), destination.path(), isDirectory);
            if (externalChecksum != null) {
                item.put("external_checksum", externalChecksum);
            }
        } else {
            batchItems(items);
        }
        return body;
    }

    private void notifications(ObjectNode body) {
        if (notify == null) {
            return;
        }
        Set<String> kinds = Set.of("succeeded", "failed", "inactive");
        String value = notify.trim().toLowerCase(Locale.ROOT);
        List<String> on = switch (value) {
            case "on" -> List.copyOf(kinds);
            case "off" -> List.of();
            default -> List.of(value.split("\\s*,\\s*"));
        };
        for (String kind : on) {
            if (!kinds.contains(kind)) {
                throw usage("--notify must be on, off, or a list of succeeded,failed,inactive; was '" + notify + "'");
            }
        }
        for (String kind : List.of("succeeded", "failed", "inactive")) {
            body.put("notify_on_" + kind, on.contains(kind));
        }
    }

    private boolean isDirectory(EndpointPath path) {
        try {
            JsonNode stat = client().get(
                            "/operation/endpoint/" + FerryApiClient.segment(path.endpoint()) + "/stat",
                            Map.of("path", path.path()));
            return "dir".equals(Json.text(stat, "type"));
        } catch (ApiException e) {
            if (e.httpStatus() == 404 && !"endpoint_id".equals(e.field())) {
                return false; // the task will report the missing source
            }
            throw e;
        }
    }

    private ObjectNode item(ArrayNode items, String sourcePath, String destinationPath, boolean isRecursive) {
        ObjectNode item = items.addObject();
        item.put("DATA_TYPE", "transfer_item");
        item.put("source_path", sourcePath);
        item.put("destination_path", destinationPath);
        item.put("recursive", isRecursive);
        return item;
    }

    private void batchItems(ArrayNode items) {
        List<BatchLines.Line> lines;
        try (BufferedReader reader = batch.equals("-")
                ? new BufferedReader(new InputStreamReader(root().environment().stdin(), StandardCharsets.UTF_8))
                : Files.newBufferedReader(
                        root().environment().localFile(batch, spec().commandLine()), StandardCharsets.UTF_8)) {
            lines = BatchLines.read(reader);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the batch file " + batch, e);
        } catch (IllegalArgumentException e) {
            throw usage("--batch " + batch + ": " + e.getMessage());
        }
        if (lines.isEmpty()) {
            throw usage("--batch " + batch + " holds no items");
        }
        for (BatchLines.Line line : lines) {
            boolean isRecursive = false;
            List<String> paths = new ArrayList<>();
            for (String word : line.words()) {
                switch (word) {
                    case "-r", "--recursive" -> isRecursive = true;
                    case "--no-recursive" -> isRecursive = false;
                    default -> {
                        if (word.startsWith("-")) {
                            throw usage("--batch line " + line.number() + ": unknown option " + word);
                        }
                        paths.add(word);
                    }
                }
            }
            if (paths.size() != 2) {
                throw usage("--batch line " + line.number() + ": expected [-r] SRC DST");
            }
            item(
                    items,
                    join(source.path(), paths.get(0), line),
                    join(destination.path(), paths.get(1), line),
                    isRecursive);
        }
    }

    private String join(String prefix, String path, BatchLines.Line line) {
        if (prefix == null) {
            if (!path.startsWith("/")) {
                throw usage("--batch line " + line.number() + ": " + path
                        + " must be absolute when the command line gives no path prefix");
            }
            return path;
        }
        return prefix.endsWith("/")
                ? prefix + path.replaceFirst("^/+", "")
                : prefix + "/" + path.replaceFirst("^/+", "");
    }

    private CommandLine.ParameterException usage(String message) {
        return new CommandLine.ParameterException(spec().commandLine(), message);
    }
}
