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
     * @return a record: ID, Name, Display Name, Owner, URL, Username, Description, Public,
     *     Default Directory, MyProxy Server, and your activation: Activated, Expires In, Expire
     *     Time, Subject (the credential's identity); for a personal endpoint also Personal,
     *     Connected, Connected Since, Agent Version, Directories and Revoked
     */
    static Record record(JsonNode endpoint) {
        Record record = new Record()
                .field("ID", Json.text(endpoint, "id"))
                .field("Name", Json.text(endpoint, "canonical_name"))
                .field("Display Name", Json.text(endpoint, "display_name"))
                .field("Owner", Json.text(endpoint, "owner_string"))
                .field("URL", Json.text(endpoint, "url"))
                .field("Username", Json.text(endpoint, "username"))
                .field("Description", Json.text(endpoint, "description"))
                .field("Public", Json.text(endpoint, "public"))
                .field("Default Directory", Json.text(endpoint, "default_directory"))
                .field("MyProxy Server", Json.text(endpoint, "myproxy_server"))
                .field("Activated", Json.text(endpoint, "activated"))
                .field("Expires In", expiresIn(endpoint))
                .field("Expire Time", Json.text(endpoint, "expire_time"))
                .field("Subject", Json.text(endpoint, "activation_subject"));
        if (endpoint.path("is_globus_connect").asBoolean()) {
            record.field("Personal", "true")
                    .field("Connected", Json.text(endpoint, "gcp_connected"))
                    .field("Connected Since", Json.text(endpoint, "gcp_connected_since"))
                    .field("Agent Version", Json.text(endpoint, "gcp_version"))
                    .field("Directories", directories(endpoint))
                    .field("Revoked", Json.text(endpoint, "gcp_revoked"));
        }
        return record;
    }

    /** @return a connected agent's shared directories, {@code NAME|rw|PATH} joined by commas */
    private static String directories(JsonNode endpoint) {
        java.util.List<String> names = new java.util.ArrayList<>();
        for (JsonNode d : endpoint.path("gcp_directories")) {
            names.add(d.asString());
        }
        return String.join(", ", names);
    }

    /**
     * @param document an endpoint or activation document
     * @return {@code expires_in} for people: {@code never} for -1, {@code 0} when not activated,
     *     else e.g. {@code 11h 59m (43190 s)}
     */
    static String expiresIn(JsonNode document) {
        JsonNode value = document.path("expires_in");
        if (!value.isNumber()) {
            return "";
        }
        long seconds = value.asLong();
        if (seconds < 0) {
            return "never";
        }
        if (seconds == 0) {
            return "0";
        }
        long hours = seconds / 3600;
        long minutes = (seconds % 3600) / 60;
        return (hours > 0 ? hours + "h " : "") + minutes + "m (" + seconds + " s)";
    }
}
