package org.ferry.cli;

import org.ferry.cli.output.Json;
import org.ferry.cli.output.Record;
import tools.jackson.databind.JsonNode;

/** Turns endpoint documents of the API into printable records. */
final class EndpointDocuments {
    private EndpointDocuments() {}

    /**
     * The fields of one endpoint document, for {@code endpoint show} and {@code endpoint add}.
     *
     * @param endpoint an endpoint document
     * @return a record: ID, Name, Display Name, Owner, URL, Username
     */
    static Record record(JsonNode endpoint) {
        return new Record()
                .field("ID", Json.text(endpoint, "id"))
                .field("Name", Json.text(endpoint, "canonical_name"))
                .field("Display Name", Json.text(endpoint, "display_name"))
                .field("Owner", Json.text(endpoint, "owner_string"))
                .field("URL", Json.text(endpoint, "url"))
                .field("Username", Json.text(endpoint, "username"))
                .field("Description", Json.text(endpoint, "description"))
                .field("Public", Json.text(endpoint, "public"))
                .field("Default Directory", Json.text(endpoint, "default_directory"));
    }
}
