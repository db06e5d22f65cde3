package org.ferry.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class TaskCommandsTest extends CliTestBase {
    private static final String ACCEPTED = """
      {"DATA_TYPE":"transfer_result","code":"Accepted",
       "message":"The transfer has been accepted and a task has been created and queued for execution",
       "task_id":"%s","submission_id":"aaaaaaaa-0000-0000-0000-000000000001","request_id":"r1"}""".formatted(TASK_ID);

    @Test
    void transferPostsTheTransferDocument() {
        api.on("POST", "/v0.10/transfer", 202, ACCEPTED);

        CliRunner.Result result = ferry(
                "transfer",
                "admin#a:/src",
                "admin#b:/dst/x:y",
                "-r",
                "--label",
                "run 1",
                "--sync-level",
                "mtime",
                "--verify-checksum",
                "--deadline",
                "2026-11-23T08:00:00+00:00",
                "--submission-id",
                "aaaaaaaa-0000-0000-0000-000000000001");

        assertThat(result.exitCode()).as(result.err()).isZero();
        FakeFerryApi.Request request = api.onlyRequest();
        assertThat(request.method()).isEqualTo("POST");
        assertThat(request.authorization()).isEqualTo("Bearer " + TOKEN);
        JsonNode body = json(request.body());
        assertThat(body.get("DATA_TYPE").asString()).isEqualTo("transfer");
        assertThat(body.get("source_endpoint").asString()).isEqualTo("admin#a");
        assertThat(body.get("destination_endpoint").asString()).isEqualTo("admin#b");
        assertThat(body.get("label").asString()).isEqualTo("run 1");
        assertThat(body.get("sync_level").asInt()).isEqualTo(2);
        assertThat(body.get("verify_checksum").asBoolean()).isTrue();
        assertThat(body.get("deadline").asString()).isEqualTo("2026-11-23T08:00:00+00:00");
        assertThat(body.get("submission_id").asString()).isEqualTo("aaaaaaaa-0000-0000-0000-000000000001");
        JsonNode item = body.get("DATA").get(0);
        assertThat(item.get("DATA_TYPE").asString()).isEqualTo("transfer_item");
        assertThat(item.get("source_path").asString()).isEqualTo("/src");
        assertThat(item.get("destination_path").asString()).isEqualTo("/dst/x:y");
        assertThat(item.get("recursive").asBoolean()).isTrue();
        assertThat(result.out())
                .isEqualTo("Message: The transfer has been accepted and a task has "
                        + "been created and queued for execution\nTask ID: " + TASK_ID + "\n");
    }

    @Test
    void transferDefaultsToAFileItemAlwaysCopied() {
        api.on("POST", "/v0.10/transfer", 202, ACCEPTED);

        assertThat(ferry("transfer", "admin#a:/f", "admin#b:/g").exitCode()).isZero();

        JsonNode body = json(api.onlyRequest().body());
        assertThat(body.get("sync_level").isNull()).isTrue();
        assertThat(body.get("verify_checksum").asBoolean()).isFalse();
        assertThat(body.has("label")).isFalse();
        assertThat(body.has("submission_id")).isFalse();
        assertThat(body.get("DATA").get(0).get("recursive").asBoolean()).isFalse();
    }

    @Test
    void syncLevelAcceptsNumbers() {
        api.on("POST", "/v0.10/transfer", 202, ACCEPTED);

        assertThat(ferry("transfer", "admin#a:/f", "admin#b:/g", "-s", "3").exitCode())
                .isZero();

        assertThat(json(api.onlyRequest().body()).get("sync_level").asInt()).isEqualTo(3);
    }

    @Test
    void transferInUnixFormatPrintsTheTaskIdAlone() {
        api.on("POST", "/v0.10/transfer", 202, ACCEPTED);

        assertThat(ferry("-F", "unix", "transfer", "admin#a:/f", "admin#b:/g").out())
                .isEqualTo(TASK_ID + "\n");
    }

    @Test
    void transferInJsonPrintsTheResultEvenWithTheOptionAfterTheSubcommand() {
        api.on("POST", "/v0.10/transfer", 202, ACCEPTED);

        CliRunner.Result result = ferry("transfer", "admin#a:/f", "admin#b:/g", "-F", "json");

        assertThat(json(result.out())).isEqualTo(json(ACCEPTED));
    }

    @Test
    void badArgumentsAreUsageErrorsWithoutARequest() {
        assertThat(ferry("transfer", "admin#a:/f", "admin#b:/g", "--sync-level", "fuzzy")
                        .exitCode())
                .isEqualTo(2);
        assertThat(ferry("transfer", "admin#a:/f", "admin#b:/g", "--deadline", "tomorrow")
                        .exitCode())
                .isEqualTo(2);
        assertThat(ferry("transfer", "admin#a", "admin#b:/g").exitCode()).isEqualTo(2);
        assertThat(ferry("transfer", "admin#a:/f").exitCode()).isEqualTo(2);
        assertThat(api.requests()).isEmpty();
    }

    @Test
    void badRequestPrintsCodeMessageAndField() {
        api.on("POST", "/v0.10/transfer", 400, """
        {"DATA_TYPE":"error","code":"ClientError.BadRequest",
         "message":"DATA[0].source_path must be an absolute path","field":"DATA[0].source_path",
         "resource":"/v0.10/transfer","request_id":"b1f3"}""");

        CliRunner.Result result = ferry("transfer", "admin#a:rel", "admin#b:/g");

        assertThat(result.exitCode()).isEqualTo(1);
        assertThat(result.out()).isEmpty();
        assertThat(result.err())
                .isEqualTo("Error: ClientError.BadRequest: DATA[0].source_path must be an absolute path\n"
                        + "Field: DATA[0].source_path\n");
    }

    @Test
    void statusWithoutIdListsTasks() {
        api.on("GET", "/v0.10/task_list", 200, """
        {"DATA_TYPE":"task_list","DATA":[%s],"length":1,"limit":10,"offset":0,"total":1}""".formatted(task("ACTIVE", "OK", 40, 12, 2048)));

        CliRunner.Result result = ferry("status", "--filter-status", "ACTIVE,FAILED");

        assertThat(result.exitCode()).as(result.err()).isZero();
        assertThat(api.onlyRequest().query()).isEqualTo("limit=10&filter=status%3AACTIVE%2CFAILED");
        assertThat(result.out().lines().toList())
                .containsExactly(
                        "Task ID                              | Status | Label | Source  | Destination | Files "
                                + "| Bytes",
                        "------------------------------------ | ------ | ----- | ------- | ----------- | ----- "
                                + "| -----",
                        TASK_ID + " | ACTIVE | run1  | admin#a | admin#b     | 12/40 | 2048");
    }

    @Test
    void statusWithIdShowsTheTaskFields() {
        api.on("GET", "/v0.10/task/" + TASK_ID, 200, task("FAILED", null, 40, 39, 4096));

        CliRunner.Result result = ferry("status", TASK_ID);

        assertThat(result.exitCode()).as(result.err()).isZero();
        assertThat(result.out())
                .contains("Task ID:              " + TASK_ID + "\n")
                .contains("Status:               FAILED\n")
                .contains("Label:                run1\n")
                .contains("Files:                40\n")
                .contains("Files Transferred:    39\n")
                .contains("Bytes Transferred:    4096\n")
                .contains("Faults:               0\n")
                .contains("Fatal Error:          FILE_NOT_FOUND: /src/x: no such file\n");
    }

    @Test
    void eventsWithErrorsFiltersOnTheServer() {
        api.on("GET", "/v0.10/task/" + TASK_ID + "/event_list", 200, """
        {"DATA_TYPE":"event_list","DATA":[{"DATA_TYPE":"event","code":"CONNECT_FAILED",
         "is_error":true,"description":"cannot connect","details":"421 busy\\n  try later",
         "time":"2026-11-22T10:16:00+00:00"}],"length":1,"limit":100,"offset":0,"total":1}""");

        CliRunner.Result result = ferry("events", TASK_ID, "--errors");

        assertThat(result.exitCode()).as(result.err()).isZero();
        assertThat(api.onlyRequest().query()).isEqualTo("limit=100&filter=is_error%3A1");
        // (one page: fewer events than a page)
        assertThat(result.out().lines().toList())
                .last()
                .isEqualTo(
                        "2026-11-22T10:16:00+00:00 | CONNECT_FAILED | true     | cannot connect | 421 busy try later");
    }

    @Test
    void eventsWithALimitAsksForOnePageWithoutFilter() {
        api.on(
                "GET",
                "/v0.10/task/" + TASK_ID + "/event_list",
                200,
                "{\"DATA_TYPE\":\"event_list\",\"DATA\":[],\"length\":0,\"limit\":5,\"offset\":0}");

        assertThat(ferry("events", TASK_ID, "--limit", "5").exitCode()).isZero();
        assertThat(api.onlyRequest().query()).isEqualTo("limit=5");
    }

    @Test
    void eventsPagesThroughAllEventsAndMergesThemInJson() {
        api.on(
                "GET",
                "/v0.10/task/" + TASK_ID + "/event_list",
                200,
                eventPage(100, 0, 150, "PROGRESS"),
                eventPage(50, 100, 150, "STARTED"));

        CliRunner.Result result = ferry("-F", "json", "events", TASK_ID);

        assertThat(result.exitCode()).as(result.err()).isZero();
        assertThat(api.requests())
                .extracting(FakeFerryApi.Request::query)
                .containsExactly("limit=100", "limit=100&offset=100");
        JsonNode list = json(result.out());
        assertThat(list.get("DATA_TYPE").asString()).isEqualTo("event_list");
        assertThat(list.get("DATA").size()).isEqualTo(150);
        assertThat(list.get("length").asInt()).isEqualTo(150);
        assertThat(list.get("DATA").get(149).get("code").asString()).isEqualTo("STARTED");
    }

    private static String eventPage(int count, int offset, int total, String code) {
        StringBuilder events = new StringBuilder();
        for (int i = 0; i < count; i++) {
            events.append(i == 0 ? "" : ",")
                    .append("{\"DATA_TYPE\":\"event\",\"code\":\"")
                    .append(code)
                    .append("\",\"is_error\":false,\"description\":\"d\",\"details\":\"\",")
                    .append("\"time\":\"2026-11-22T10:16:00+00:00\"}");
        }
        return "{\"DATA_TYPE\":\"event_list\",\"DATA\":[" + events + "],\"length\":" + count
                + ",\"limit\":100,\"offset\":" + offset + ",\"total\":" + total + "}";
    }

    @Test
    void cancelPostsAndPrintsTheMessage() {
        api.on(
                "POST",
                "/v0.10/task/" + TASK_ID + "/cancel",
                200,
                "{\"DATA_TYPE\":\"result\",\"code\":\"Canceled\","
                        + "\"message\":\"The task has been cancelled successfully.\"}");

        CliRunner.Result result = ferry("cancel", TASK_ID);

        assertThat(result.exitCode()).as(result.err()).isZero();
        assertThat(api.onlyRequest().method()).isEqualTo("POST");
        assertThat(result.out()).isEqualTo("Message: The task has been cancelled successfully.\n");
    }
}
