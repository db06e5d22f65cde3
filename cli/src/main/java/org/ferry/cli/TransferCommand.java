package org.ferry.cli;

import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import org.ferry.cli.output.Json;
import org.ferry.cli.output.OutputFormat;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code ferry transfer SRC DST [options]}: submits a transfer task with one item
 * ({@code POST /v0.10/transfer}).
 *
 * <p>Output: text {@code Message: <message>} and {@code Task ID: <uuid>} lines (as globus-cli);
 * unix the task id alone (for {@code id=$(ferry -F unix transfer ...)}); json the
 * transfer_result document.
 */
@Command(
        name = "transfer",
        mixinStandardHelpOptions = true,
        versionProvider = FerryVersion.class,
        sortOptions = false,
        description = {
            "Submit a transfer task, e.g.: ferry transfer -r admin#a:/src admin#b:/dst",
            "Prints 'Message: ...' and 'Task ID: <id>' (text), the task id alone (-F unix) or the "
                    + "API's transfer_result (-F json). Follow the task with: ferry wait <id>"
        })
public final class TransferCommand extends ApiCommand {
    @Parameters(
            index = "0",
            paramLabel = "SRC",
            converter = EndpointPath.Converter.class,
            description = "Source ENDPOINT:PATH, e.g. admin#a:/data/run1")
    private EndpointPath source;

    @Parameters(
            index = "1",
            paramLabel = "DST",
            converter = EndpointPath.Converter.class,
            description = "Destination ENDPOINT:PATH. A file is written exactly there; a recursive "
                    + "directory's contents go inside it.")
    private EndpointPath destination;

    @Option(
            names = {"-r", "--recursive"},
            description = "SRC is a directory: copy its tree.")
    private boolean recursive;

    @Option(names = "--label", paramLabel = "L", description = "A label for the task (<= 128 chars).")
    private String label;

    @Option(
            names = {"-s", "--sync-level"},
            paramLabel = "LEVEL",
            converter = SyncLevel.Converter.class,
            description = "Skip files already at the destination by: exists, size, mtime, checksum "
                    + "(or 0-3). Default: always copy.")
    private SyncLevel syncLevel;

    @Option(names = "--verify-checksum", description = "Compare source and destination checksums after each file.")
    private boolean verifyChecksum;

    @Option(
            names = {"--encrypt-data", "--encrypt"},
            description = "Encrypt every data channel of the task (PROT P); both endpoints must be gsiftp://.")
    private boolean encryptData;

    @Option(
            names = "--skip-activation-check",
            description = "Submit even if an endpoint is not activated: the task waits INACTIVE until it is.")
    private boolean skipActivationCheck;

    @Option(
            names = "--deadline",
            paramLabel = "ISO",
            description = "Give up at this time, ISO-8601 with offset, e.g. 2026-11-23T08:00:00+00:00.")
    private String deadline;

    @Option(
            names = "--submission-id",
            paramLabel = "ID",
            description = "Idempotency key: re-submitting the same id returns the same task.")
    private String submissionId;

    /** @return 0 once the task is accepted */
    @Override
    protected int execute() {
        if (source.path() == null || destination.path() == null) {
            throw new CommandLine.ParameterException(
                    spec().commandLine(), "SRC and DST need a path: ENDPOINT:PATH, e.g. admin#a:/data");
        }
        if (deadline != null) {
            try {
                OffsetDateTime.parse(deadline);
            } catch (DateTimeParseException e) {
                throw new CommandLine.ParameterException(
                        spec().commandLine(),
                        "--deadline must be ISO-8601 with an offset, e.g. 2026-11-23T08:00:00+00:00");
            }
        }
        JsonNode result = client().post("/transfer", document());
        if (format() == OutputFormat.JSON) {
            printJson(result);
        } else if (format() == OutputFormat.UNIX) {
            out().println(Json.text(result, "task_id"));
        } else {
            out().println("Message: " + Json.text(result, "message"));
            out().println("Task ID: " + Json.text(result, "task_id"));
        }
        out().flush();
        return 0;
    }

    private ObjectNode document() {
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
        if (syncLevel != null) {
            body.put("sync_level", syncLevel.ordinal());
        } else {
            body.putNull("sync_level");
        }
        body.put("verify_checksum", verifyChecksum);
        if (encryptData) {
            body.put("encrypt_data", true);
        }
        if (skipActivationCheck) {
            body.put("skip_activation_check", true);
        }
        ObjectNode item = body.putArray("DATA").addObject();
        item.put("DATA_TYPE", "transfer_item");
        item.put("source_path", source.path());
        item.put("destination_path", destination.path());
        item.put("recursive", recursive);
        return body;
    }
}
