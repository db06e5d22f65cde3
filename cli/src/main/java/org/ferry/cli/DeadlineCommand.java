package org.ferry.cli;

import org.ferry.cli.api.FerryApiClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.node.ObjectNode;

/** {@code ferry deadline TASK_ID TIME}: {@code PUT /v0.10/task/{id}} with a new deadline. */
@Command(
        name = "deadline",
        mixinStandardHelpOptions = true,
        versionProvider = FerryVersion.class,
        description = "Change an active task's deadline: ISO-8601 with an offset, or +DURATION from now.",
        footerHeading = "%nExamples:%n",
        footer = {
            "  ferry deadline 6f1c9a2e-8d0b-4c1e-9f3a-2b7d5e4c1a00 +12h",
            "  ferry deadline 6f1c9a2e-8d0b-4c1e-9f3a-2b7d5e4c1a00 2026-11-23T08:00:00+00:00"
        })
public final class DeadlineCommand extends ApiCommand {
    @Parameters(index = "0", paramLabel = "TASK_ID", description = "A task's id.")
    private String taskId;

    @Parameters(
            index = "1",
            paramLabel = "TIME",
            converter = TimeArguments.DeadlineConverter.class,
            description = "The new deadline.")
    private String deadline;

    /** @return 0 once changed */
    @Override
    protected int execute() {
        ObjectNode body = root().mapper().createObjectNode();
        body.put("DATA_TYPE", "task");
        body.put("deadline", deadline);
        ResultPrinter.print(this, client().put("/task/" + FerryApiClient.segment(taskId), body));
        return 0;
    }
}
