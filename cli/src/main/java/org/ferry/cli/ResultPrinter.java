package org.ferry.cli;

import org.ferry.cli.output.Json;
import org.ferry.cli.output.OutputFormat;
import tools.jackson.databind.JsonNode;

/** Prints an API {@code result} document ({@code code}, {@code message}). */
final class ResultPrinter {
    private ResultPrinter() {}

    /**
     * Prints the result: text {@code Message: <message>}, unix the code, json the document.
     *
     * @param command the command printing it (for the stream and format)
     * @param result the result document
     */
    static void print(ApiCommand command, JsonNode result) {
        OutputFormat format = command.format();
        if (format == OutputFormat.JSON) {
            command.printJson(result);
        } else if (format == OutputFormat.UNIX) {
            command.out().println(Json.text(result, "code"));
        } else {
            command.out().println("Message: " + Json.text(result, "message"));
        }
        command.out().flush();
    }
}
