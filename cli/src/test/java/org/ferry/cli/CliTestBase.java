package org.ferry.cli;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** A fake API, a fake home directory and an environment pointing the CLI at them. */
abstract class CliTestBase {
    static final String TOKEN = "test-token-123";
    static final String TASK_ID = "6f1c9a2e-8d0b-4c1e-9f3a-2b7d5e4c1a00";

    @TempDir
    Path home;

    FakeFerryApi api;
    Map<String, String> env;

    @BeforeEach
    void startApi() throws Exception {
        api = new FakeFerryApi();
        env = new HashMap<>();
        env.put("FERRY_API", api.url());
        env.put("FERRY_TOKEN", TOKEN);
        env.put("CI", "true");
    }

    @AfterEach
    void stopApi() {
        api.close();
    }

    CliRunner.Result ferry(String... args) {
        return CliRunner.run(env, home, "", args);
    }

    static JsonNode json(String text) {
        return JsonMapper.builder().build().readTree(text);
    }

    static String task(String status, String niceStatus, int files, int done, long bytes) {
        return """
        {"DATA_TYPE":"task","task_id":"%s","type":"TRANSFER","status":"%s","nice_status":%s,
         "label":"run1","owner_string":"admin","request_time":"2026-11-22T10:15:30+00:00",
         "completion_time":null,"deadline":"2026-11-23T10:15:30+00:00",
         "source_endpoint":"admin#a","source_endpoint_id":"11111111-1111-1111-1111-111111111111",
         "destination_endpoint":"admin#b",
         "destination_endpoint_id":"22222222-2222-2222-2222-222222222222",
         "sync_level":null,"verify_checksum":false,"files":%d,"directories":1,
         "files_transferred":%d,"files_skipped":0,"bytes_transferred":%d,
         "effective_bytes_per_second":1048576,"faults":0,"subtasks_total":1,
         "subtasks_pending":0,"subtasks_succeeded":1,"subtasks_failed":0,"fatal_error":%s}
        """.formatted(
                        TASK_ID,
                        status,
                        niceStatus == null ? "null" : "\"" + niceStatus + "\"",
                        files,
                        done,
                        bytes,
                        "FAILED".equals(status)
                                ? "{\"code\":\"FILE_NOT_FOUND\",\"description\":\"/src/x: no such file\"}"
                                : "null");
    }
}
