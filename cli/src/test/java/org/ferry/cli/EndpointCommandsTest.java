package org.ferry.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class EndpointCommandsTest extends CliTestBase {
    private static final String ENDPOINT = """
      {"DATA_TYPE":"endpoint","id":"11111111-1111-1111-1111-111111111111",
       "canonical_name":"admin#a","display_name":"a","owner_string":"admin",
       "url":"ftp://127.0.0.1:2811","username":"anonymous"}""";

    @Test
    void addPostsTheEndpointDocumentWithTheToken() {
        api.on("POST", "/v0.10/endpoint", 201, ENDPOINT);

        CliRunner.Result result = ferry(
                "endpoint",
                "add",
                "admin#a",
                "--url",
                "ftp://127.0.0.1:2811",
                "--username",
                "bob",
                "--password",
                "s3cret");

        assertThat(result.exitCode()).as(result.err()).isZero();
        FakeFerryApi.Request request = api.onlyRequest();
        assertThat(request.authorization()).isEqualTo("Bearer " + TOKEN);
        assertThat(request.contentType()).startsWith("application/json");
        JsonNode body = json(request.body());
        assertThat(body.get("DATA_TYPE").asString()).isEqualTo("endpoint");
        assertThat(body.get("canonical_name").asString()).isEqualTo("admin#a");
        assertThat(body.get("url").asString()).isEqualTo("ftp://127.0.0.1:2811");
        assertThat(body.get("username").asString()).isEqualTo("bob");
        assertThat(body.get("password").asString()).isEqualTo("s3cret");
        assertThat(result.out())
                .containsPattern("ID: +11111111-1111-1111-1111-111111111111")
                .containsPattern("Name: +admin#a")
                .containsPattern("URL: +ftp://127.0.0.1:2811");
    }

    @Test
    void addLeavesUsernameAndPasswordToTheApiDefaults() {
        api.on("POST", "/v0.10/endpoint", 201, ENDPOINT);

        assertThat(ferry("endpoint", "add", "admin#a", "--url", "ftp://127.0.0.1:2811")
                        .exitCode())
                .isZero();

        JsonNode body = json(api.onlyRequest().body());
        assertThat(body.has("username")).isFalse();
        assertThat(body.has("password")).isFalse();
    }

    @Test
    void addReadsThePasswordFromStdin() {
        api.on("POST", "/v0.10/endpoint", 201, ENDPOINT);

        CliRunner.Result result = CliRunner.run(
                env,
                home,
                "from-stdin\nignored\n",
                "endpoint",
                "add",
                "admin#a",
                "--url",
                "ftp://127.0.0.1:2811",
                "--password-stdin");

        assertThat(result.exitCode()).as(result.err()).isZero();
        assertThat(json(api.onlyRequest().body()).get("password").asString()).isEqualTo("from-stdin");
    }

    @Test
    void passwordAndPasswordStdinTogetherAreAUsageError() {
        CliRunner.Result result =
                ferry("endpoint", "add", "admin#a", "--url", "ftp://h:1", "--password", "x", "--password-stdin");

        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.err()).contains("mutually exclusive");
        assertThat(api.requests()).isEmpty();
    }

    @Test
    void addWithoutUrlIsAUsageError() {
        assertThat(ferry("endpoint", "add", "admin#a").exitCode()).isEqualTo(2);
    }

    @Test
    void showEncodesTheHashOfTheName() {
        api.on("GET", "/v0.10/endpoint/admin%23a", 200, ENDPOINT);

        CliRunner.Result result = ferry("endpoint", "show", "admin#a");

        assertThat(result.exitCode()).as(result.err()).isZero();
        assertThat(api.onlyRequest().path()).isEqualTo("/v0.10/endpoint/admin%23a");
        assertThat(result.out()).containsPattern("Owner: +admin");
    }

    @Test
    void showInJsonPrintsTheApiDocument() {
        api.on("GET", "/v0.10/endpoint/admin%23a", 200, ENDPOINT);

        CliRunner.Result result = ferry("-F", "json", "endpoint", "show", "admin#a");

        assertThat(json(result.out())).isEqualTo(json(ENDPOINT));
    }

    @Test
    void listPrintsATable() {
        api.on("GET", "/v0.10/endpoint_search", 200, """
        {"DATA_TYPE":"endpoint_list","DATA":[%s],"length":1,"limit":100,"offset":0}""".formatted(ENDPOINT));

        CliRunner.Result result = ferry("endpoint", "list", "--filter", "adm");

        assertThat(result.exitCode()).as(result.err()).isZero();
        assertThat(api.onlyRequest().query()).isEqualTo("filter_fulltext=adm&limit=100");
        assertThat(result.out().lines().toList())
                .containsExactly(
                        "ID                                   | Name    | URL                  | Username",
                        "------------------------------------ | ------- | -------------------- | ---------",
                        "11111111-1111-1111-1111-111111111111 | admin#a | ftp://127.0.0.1:2811 | anonymous");
    }

    @Test
    void listInUnixFormatIsTabSeparatedWithoutHeader() {
        api.on("GET", "/v0.10/endpoint_search", 200, """
        {"DATA_TYPE":"endpoint_list","DATA":[%s],"length":1,"limit":100,"offset":0}""".formatted(ENDPOINT));

        CliRunner.Result result = ferry("endpoint", "list", "-F", "unix");

        assertThat(result.out())
                .isEqualTo("11111111-1111-1111-1111-111111111111\tadmin#a\tftp://127.0.0.1:2811\tanonymous\n");
    }

    @Test
    void removeDeletesAndPrintsTheMessage() {
        api.on(
                "DELETE",
                "/v0.10/endpoint/admin%23a",
                200,
                "{\"DATA_TYPE\":\"result\",\"code\":\"Deleted\"," + "\"message\":\"Endpoint deleted successfully\"}");

        CliRunner.Result result = ferry("endpoint", "remove", "admin#a");

        assertThat(result.exitCode()).as(result.err()).isZero();
        assertThat(api.onlyRequest().method()).isEqualTo("DELETE");
        assertThat(result.out()).isEqualTo("Message: Endpoint deleted successfully\n");
    }

    @Test
    void lsSendsThePathAndMarksDirectories() {
        api.on("GET", "/v0.10/operation/endpoint/admin%23a/ls", 200, """
        {"DATA_TYPE":"file_list","endpoint":"admin#a","path":"/dir/","DATA":[
         {"DATA_TYPE":"file","name":"sub","type":"dir","size":4096,
          "last_modified":"2026-11-22T10:15:30+00:00","permissions":"0755"},
         {"DATA_TYPE":"file","name":"x y.txt","type":"file","size":12,
          "last_modified":"2026-11-22T10:15:31+00:00","permissions":"0644"}]}""");

        CliRunner.Result plain = ferry("ls", "admin#a:/dir");
        CliRunner.Result longForm = ferry("ls", "admin#a:/dir", "-l");

        assertThat(plain.exitCode()).as(plain.err()).isZero();
        assertThat(api.requests().get(0).query()).isEqualTo("path=%2Fdir");
        assertThat(plain.out()).isEqualTo("sub/\nx y.txt\n");
        assertThat(longForm.out().lines().toList())
                .containsExactly(
                        "Permissions | Size | Last Modified             | Type | Filename",
                        "----------- | ---- | ------------------------- | ---- | --------",
                        "0755        | 4096 | 2026-11-22T10:15:30+00:00 | dir  | sub",
                        "0644        | 12   | 2026-11-22T10:15:31+00:00 | file | x y.txt");
    }

    @Test
    void mainPrintsUtf8WhateverTheLocale() {
        api.on("GET", "/v0.10/operation/endpoint/admin%23a/ls", 200, """
        {"DATA_TYPE":"file_list","endpoint":"admin#a","path":"/été/","DATA":[
         {"DATA_TYPE":"file","name":"données été","type":"file","size":1,
          "last_modified":"2026-11-22T10:15:30+00:00","permissions":"0644"}]}""");
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();

        int exitCode = FerryCli.run(
                new CliEnvironment(env, home, new java.io.ByteArrayInputStream(new byte[0]), false),
                out,
                err,
                "ls",
                "admin#a:/été");

        assertThat(exitCode)
                .as(err.toString(java.nio.charset.StandardCharsets.UTF_8))
                .isZero();
        assertThat(api.onlyRequest().query()).isEqualTo("path=%2F%C3%A9t%C3%A9");
        assertThat(out.toByteArray()).isEqualTo("données été\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    @Test
    void lsWithoutPathListsTheRoot() {
        api.on(
                "GET",
                "/v0.10/operation/endpoint/admin%23a/ls",
                200,
                "{\"DATA_TYPE\":\"file_list\",\"endpoint\":\"admin#a\",\"path\":\"/\",\"DATA\":[]}");

        assertThat(ferry("ls", "admin#a").exitCode()).isZero();
        assertThat(api.onlyRequest().query()).isEqualTo("path=%2F");
    }

    @Test
    void lsOfAMissingPathReportsTheApiError() {
        api.on("GET", "/v0.10/operation/endpoint/admin%23a/ls", 404, """
        {"DATA_TYPE":"error","code":"ClientError.NotFound","message":"/nope: no such directory",
         "resource":"/v0.10/operation/endpoint/admin%23a/ls","request_id":"r1"}""");

        CliRunner.Result result = ferry("ls", "admin#a:/nope");

        assertThat(result.exitCode()).isEqualTo(1);
        assertThat(result.out()).isEmpty();
        assertThat(result.err()).isEqualTo("Error: ClientError.NotFound: /nope: no such directory\n");
    }
}
