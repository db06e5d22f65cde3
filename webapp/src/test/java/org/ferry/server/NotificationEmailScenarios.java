package org.ferry.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import jakarta.mail.BodyPart;
import jakarta.mail.Multipart;
import jakarta.mail.Part;
import jakarta.mail.internet.MimeMessage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.function.Predicate;
import javax.sql.DataSource;
import org.ferry.scheduler.state.NotificationRows;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * E-mail notifications ({@code notify_on_*}) end to end: two in-JVM Ferry GridFTP servers, the
 * whole service over real HTTP and GreenMail, a real SMTP server run by the test on a free loopback
 * port, run once per database by {@link NotificationEmailTest} (H2) and
 * {@link NotificationEmailPostgresTest} (PostgreSQL). The delivered messages are read back
 * (subject, text and HTML parts, figures); a stopped mail server, or one that refuses the message
 * with a 5xx reply, leaves the task's outcome alone, makes a {@code NOTIFICATION_FAILED} event, and
 * the message arrives once the server takes it; two instances claiming one outbox row: one wins.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
abstract class NotificationEmailScenarios {

    private static final String OWNER = "admin@example.test";
    private static final Duration PATIENCE = Duration.ofSeconds(120);
    /** The throttled server's rate: a 2 MB file is still arriving when the test acts. */
    static final long SLOW_BYTES_PER_SECOND = 1_000_000;

    @DynamicPropertySource
    static void mailSettings(DynamicPropertyRegistry registry) {
        registry.add("ferry.transfer.max-attempts", () -> "2");
        registry.add("ferry.transfer.retry-backoff-seconds", () -> "0");
        // one file per chunk, one chunk moving at a time (the failed-file case needs the order)
        registry.add("ferry.transfer.chunk-max-files", () -> "1");
        registry.add("ferry.transfer.worker-threads", () -> "1");
        registry.add("ferry.mail.poll-interval", () -> "200ms");
        registry.add("ferry.mail.retry.initial-delay", () -> "1s");
        registry.add("ferry.mail.retry.max-delay", () -> "2s");
    }

    private final TransferFixture fixture;
    private final TestSmtp smtp;
    private final Path siteA;
    private final Path siteB;

    @LocalServerPort
    int port;

    ApiClient api;

    @Autowired
    DataSource dataSource;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    NotificationRows outbox;

    /**
     * @param fixture the concrete class's home, database and sites (with a throttled site A)
     * @param smtp the concrete class's mail server
     */
    NotificationEmailScenarios(TransferFixture fixture, TestSmtp smtp) {
        this.fixture = fixture;
        this.smtp = smtp;
        this.siteA = fixture.siteA();
        this.siteB = fixture.siteB();
    }

    @BeforeEach
    void connect() throws IOException {
        api = fixture.adminApi(port, dataSource);
        if (fixture.registerSites(api, "mail")) {
            TransferFixture.createEndpoint(
                    api, TransferFixture.endpoint("admin#mail-slow-a", fixture.throttledUrlA(), "alice", "pw-a"));
            TransferFixture.createEndpoint(
                    api, TransferFixture.endpoint("admin#mail-gsi-a", "gsiftp://localhost:1", null, null));
            TransferFixture.createEndpoint(
                    api, TransferFixture.endpoint("admin#mail-gsi-b", "gsiftp://localhost:2", null, null));
            ApiClient.Answer user = api.put("/v0.10/user/admin", Map.of("email", OWNER));
            assertThat(user.status()).as(String.valueOf(user.body())).isEqualTo(200);
            assertThat(user.body().get("email").asString()).isEqualTo(OWNER);
        }
    }

    @Test
    void succeededTaskMailsTheOwnerWithTextAndHtmlAndTheFigures() throws Exception {
        byte[] data = new byte[1_500_000];
        new Random(7).nextBytes(data);
        Files.createDirectories(siteA.resolve("ok"));
        Files.write(siteA.resolve("ok/one.bin"), data);
        Files.write(siteA.resolve("ok/two.txt"), "hello mail\n".getBytes());
        String label = "nightly ok " + UUID.randomUUID();
        Map<String, Object> transfer = transfer("admin#mail-a", "admin#mail-b", "/ok", "/ok-copy", true, label);
        JsonNode task = runToEnd(transfer);
        assertThat(task.get("status").asString()).isEqualTo("SUCCEEDED");

        MimeMessage message = awaitMessage(label);
        assertThat(message.getSubject()).contains("SUCCEEDED", label);
        assertThat(message.getAllRecipients()[0].toString()).isEqualTo(OWNER);
        assertThat(message.getFrom()[0].toString()).isEqualTo("ferry@example.test");
        String text = part(message, "text/plain");
        String html = part(message, "text/html");
        for (String body : List.of(text, html)) {
            assertThat(body)
                    .contains(label, task.get("task_id").asString(), "admin#mail-a", "admin#mail-b")
                    .contains("/ok", "/ok-copy")
                    .contains("2 transferred")
                    .contains(String.valueOf(1_500_000 + 11))
                    .contains("Duration", "Rate")
                    .doesNotContain("What to do next");
        }
        assertThat(html).contains("<table>");
        assertThat(awaitEvent(task.get("task_id").asString(), "NOTIFICATION_SENT")
                        .get("description")
                        .asString())
                .contains(OWNER);
        // one message per task and kind: nothing else for this task arrives later polls
        assertThat(eventCodes(task.get("task_id").asString())).containsOnlyOnce("NOTIFICATION_SENT");
    }

    @Test
    void failedTaskMailsTheErrorTheFileAndWhatToDo() throws Exception {
        // two files from the throttled source, one chunk each, one chunk moving at a time: once one
        // file is arriving, the other is deleted at the source, and its chunk later finds it gone
        // (FILE_NOT_FOUND, a permanent fault of that file: the task fails naming it)
        byte[] data = new byte[2_000_000];
        new Random(11).nextBytes(data);
        Files.createDirectories(siteA.resolve("bad"));
        Files.write(siteA.resolve("bad/one.bin"), data);
        Files.write(siteA.resolve("bad/two.bin"), data);
        String label = "doomed " + UUID.randomUUID();
        ApiClient.Answer accepted = api.post(
                "/v0.10/transfer", transfer("admin#mail-slow-a", "admin#mail-b", "/bad", "/bad-copy", true, label));
        assertThat(accepted.status()).as(String.valueOf(accepted.body())).isEqualTo(202);
        String taskId = accepted.body().get("task_id").asString();
        // the source of the file that has not started arriving yet goes away
        String vanished = await().atMost(PATIENCE)
                .pollInterval(Duration.ofMillis(20))
                .alias("a file arriving")
                .until(
                        () -> arriving(siteB.resolve("bad-copy/one.bin")) > 0
                                ? "two.bin"
                                : arriving(siteB.resolve("bad-copy/two.bin")) > 0 ? "one.bin" : null,
                        java.util.Objects::nonNull);
        Files.delete(siteA.resolve("bad/" + vanished));
        JsonNode task = TaskWaits.ended(api, taskId);
        assertThat(task.get("status").asString()).isEqualTo("FAILED");
        String code = task.get("fatal_error").get("code").asString();

        MimeMessage message = awaitMessage(label);
        assertThat(message.getSubject()).contains("FAILED", label);
        String text = part(message, "text/plain");
        String html = part(message, "text/html");
        for (String body : List.of(text, html)) {
            assertThat(body)
                    .contains(code, "/bad", "/bad-copy", "What to do next", "Files affected")
                    .contains("/bad/" + vanished)
                    .contains("1 transferred");
        }
    }

    /**
     * @return bytes of {@code file} at the destination: under its name, or under the temporary
     *     name ({@code .name.ferry-part}) a file moved on its own is written as until checked
     */
    private static long arriving(Path file) throws IOException {
        return Math.max(size(file), size(file.resolveSibling("." + file.getFileName() + ".ferry-part")));
    }

    private static long size(Path file) throws IOException {
        return Files.exists(file) ? Files.size(file) : 0;
    }

    @Test
    void inactiveTaskMailsWhatToDo() throws Exception {
        String label = "waiting " + UUID.randomUUID();
        Map<String, Object> transfer = transfer("admin#mail-gsi-a", "admin#mail-gsi-b", "/a", "/b", false, label);
        transfer.put("skip_activation_check", true);
        ApiClient.Answer accepted = api.post("/v0.10/transfer", transfer);
        assertThat(accepted.status()).as(String.valueOf(accepted.body())).isEqualTo(202);
        String taskId = accepted.body().get("task_id").asString();

        MimeMessage message = awaitMessage(label);
        assertThat(api.get("/v0.10/task/" + taskId).body().get("status").asString())
                .isEqualTo("INACTIVE");
        assertThat(message.getSubject()).contains("INACTIVE", label);
        String text = part(message, "text/plain");
        assertThat(text).contains("admin#mail-gsi-a is not activated", "ferry endpoint activate", taskId);
        assertThat(part(message, "text/html")).contains("What to do next");
        api.post("/v0.10/task/" + taskId + "/cancel", Map.of());
    }

    @Test
    void mailServerDownNeverChangesTheOutcomeAndTheMessageComesLater() throws Exception {
        smtp.stop();
        try {
            Files.createDirectories(siteA.resolve("later"));
            Files.write(siteA.resolve("later/x.txt"), "x\n".getBytes());
            String label = "while down " + UUID.randomUUID();
            JsonNode task = runToEnd(transfer("admin#mail-a", "admin#mail-b", "/later", "/later-copy", true, label));
            assertThat(task.get("status").asString()).isEqualTo("SUCCEEDED");
            String taskId = task.get("task_id").asString();
            JsonNode failed = awaitEvent(taskId, "NOTIFICATION_FAILED");
            assertThat(failed.get("description").asString()).contains("could not be sent", "trying again");
            assertThat(api.get("/v0.10/task/" + taskId).body().get("status").asString())
                    .isEqualTo("SUCCEEDED");

            smtp.start();
            MimeMessage message = awaitMessage(label);
            assertThat(message.getSubject()).contains("SUCCEEDED", label);
            awaitEvent(taskId, "NOTIFICATION_SENT");
            assertThat(api.get("/v0.10/task/" + taskId).body().get("status").asString())
                    .isEqualTo("SUCCEEDED");
        } finally {
            if (!smtp.isRunning()) {
                smtp.start();
            }
        }
    }

    @Test
    void mailServerRefusingWithFiveHundredsNeverChangesTheOutcomeAndTheMessageIsRetried() throws Exception {
        smtp.refuseRecipients("550 5.1.1 <" + OWNER + ">: recipient refused by the test");
        try {
            Files.createDirectories(siteA.resolve("refused"));
            Files.write(siteA.resolve("refused/r.txt"), "r\n".getBytes());
            String label = "refused " + UUID.randomUUID();
            JsonNode task =
                    runToEnd(transfer("admin#mail-a", "admin#mail-b", "/refused", "/refused-copy", true, label));
            assertThat(task.get("status").asString()).isEqualTo("SUCCEEDED");
            String taskId = task.get("task_id").asString();
            // refused at RCPT: an event with the server's reply, and another attempt later
            JsonNode atRecipient = awaitEvent(taskId, "NOTIFICATION_FAILED", "550 5.1.1");
            assertThat(atRecipient.get("description").asString()).contains("could not be sent", "trying again");

            // then refused at the end of DATA: another failed attempt, still no change to the task
            smtp.refuseData("554 5.6.0 message refused by the test");
            JsonNode atData = awaitEvent(taskId, "NOTIFICATION_FAILED", "554 5.6.0");
            assertThat(atData.get("description").asString()).contains("could not be sent", "trying again");
            assertThat(smtp.refusals()).isGreaterThanOrEqualTo(2);
            assertThat(smtp.received()).noneMatch(m -> subject(m).contains(label));
            assertThat(api.get("/v0.10/task/" + taskId).body().get("status").asString())
                    .isEqualTo("SUCCEEDED");

            smtp.accept();
            MimeMessage message = awaitMessage(label);
            assertThat(message.getSubject()).contains("SUCCEEDED", label);
            awaitEvent(taskId, "NOTIFICATION_SENT");
            JsonNode after = api.get("/v0.10/task/" + taskId).body();
            assertThat(after.get("status").asString()).isEqualTo("SUCCEEDED");
            assertThat(after.get("completion_time").asString())
                    .isEqualTo(task.get("completion_time").asString());
            assertThat(eventCodes(taskId)).containsOnlyOnce("NOTIFICATION_SENT");
        } finally {
            smtp.accept();
        }
    }

    @Test
    void aFailingTimerRunMailsUnderNotifyOnFailure() throws Exception {
        // notify_on omitted: failure only; the run's source is missing, so the run fails
        String name = "timer failing " + UUID.randomUUID();
        ApiClient.Answer created =
                api.post("/v0.10/timer", timerDocument(name, null, "/no-such-dir", "/timed-failing"));
        assertThat(created.status()).as(String.valueOf(created.body())).isEqualTo(201);
        assertThat(created.body().get("notify_on").asString()).isEqualTo("failure");
        String taskId = awaitRunTask(created.body().get("job_id").asString());
        JsonNode task = TaskWaits.ended(api, taskId);
        assertThat(task.get("status").asString()).as(task.toString()).isEqualTo("FAILED");

        // the run's label is the timer's name
        MimeMessage message = awaitMessage(name);
        assertThat(message.getSubject()).contains("FAILED");
        String text = part(message, "text/plain");
        assertThat(text).contains(taskId, "/no-such-dir", "What to do next");
        assertThat(awaitEvent(taskId, "NOTIFICATION_SENT").get("description").asString())
                .contains(OWNER);
    }

    @Test
    void notifyFalseSendsNothing() throws Exception {
        Files.createDirectories(siteA.resolve("quiet"));
        Files.write(siteA.resolve("quiet/q.txt"), "q\n".getBytes());
        String label = "quiet " + UUID.randomUUID();
        Map<String, Object> transfer = transfer("admin#mail-a", "admin#mail-b", "/quiet", "/quiet-copy", true, label);
        transfer.put("notify_on_succeeded", false);
        JsonNode task = runToEnd(transfer);
        assertThat(task.get("status").asString()).isEqualTo("SUCCEEDED");
        // a task that mails (default flags) ends after it: once its message is in, the quiet one
        // would have been sent too (the outbox is sent in order)
        Files.createDirectories(siteA.resolve("loud"));
        Files.write(siteA.resolve("loud/l.txt"), "l\n".getBytes());
        String loud = "loud " + UUID.randomUUID();
        runToEnd(transfer("admin#mail-a", "admin#mail-b", "/loud", "/loud-copy", true, loud));
        awaitMessage(loud);
        for (MimeMessage message : smtp.received()) {
            assertThat(message.getSubject()).doesNotContain(label);
        }
        assertThat(eventCodes(task.get("task_id").asString())).doesNotContain("NOTIFICATION_SENT");
    }

    @Test
    void timerNotifyOnChoosesWhichRunsMail() throws Exception {
        Files.createDirectories(siteA.resolve("timed"));
        Files.write(siteA.resolve("timed/t.txt"), "t\n".getBytes());
        // notify_on omitted: failure only, so this run's success sends nothing
        String quiet = "timer quiet " + UUID.randomUUID();
        String quietTask = runOnceTimer(quiet, null, "/timed-quiet");
        String loud = "timer loud " + UUID.randomUUID();
        String loudTask = runOnceTimer(loud, "every_run", "/timed-loud");
        MimeMessage message = awaitMessage(loud);
        assertThat(message.getSubject()).contains("SUCCEEDED");
        assertThat(part(message, "text/plain")).contains(loudTask);
        for (MimeMessage other : smtp.received()) {
            assertThat(other.getSubject()).doesNotContain(quiet);
        }
        assertThat(eventCodes(quietTask)).doesNotContain("NOTIFICATION_SENT");

        Map<String, Object> bad = timerDocument("bad " + UUID.randomUUID(), "sometimes", "/timed", "/x");
        ApiClient.Answer refused = api.post("/v0.10/timer", bad);
        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.body().get("field").asString()).isEqualTo("timer.notify_on");
    }

    @Test
    void twoInstancesClaimingOneOutboxRowOneWins() {
        UUID taskId = UUID.randomUUID();
        Instant later = Instant.now().plus(Duration.ofHours(1));
        // due only in an hour: the running sender does not see it, the two claims below do
        jdbc.update(
                "insert into task_notification (task_id, kind, created_time, attempts, next_attempt) values (?, ?, ?, 0, ?)",
                taskId,
                "SUCCEEDED",
                Timestamp.from(Instant.now()),
                Timestamp.from(later));
        try {
            Instant when = later.plusSeconds(1);
            List<NotificationRows.Claimed> first = outbox.claimDue("instance-a", when, when.plusSeconds(300), 20, 100);
            List<NotificationRows.Claimed> second = outbox.claimDue("instance-b", when, when.plusSeconds(300), 20, 100);
            assertThat(first).extracting(NotificationRows.Claimed::taskId).contains(taskId);
            assertThat(second).extracting(NotificationRows.Claimed::taskId).doesNotContain(taskId);
            NotificationRows.Claimed row = new NotificationRows.Claimed(taskId, "SUCCEEDED", 0);
            assertThat(outbox.markSent(row, "instance-b", when)).isFalse();
            assertThat(outbox.markSent(row, "instance-a", when)).isTrue();
            // sent: nobody claims it again, even after the claim would have lapsed
            Instant much = when.plus(Duration.ofHours(1));
            assertThat(outbox.claimDue("instance-b", much, much.plusSeconds(300), 20, 100))
                    .extracting(NotificationRows.Claimed::taskId)
                    .doesNotContain(taskId);
        } finally {
            jdbc.update("delete from task_notification where task_id = ?", taskId);
        }
    }

    /** @return the task of the timer's single run, once it ended SUCCEEDED */
    private String runOnceTimer(String name, String notifyOn, String destinationPath) throws Exception {
        ApiClient.Answer created = api.post("/v0.10/timer", timerDocument(name, notifyOn, "/timed", destinationPath));
        assertThat(created.status()).as(String.valueOf(created.body())).isEqualTo(201);
        assertThat(created.body().get("notify_on").asString()).isEqualTo(notifyOn == null ? "failure" : notifyOn);
        String taskId = awaitRunTask(created.body().get("job_id").asString());
        assertThat(TaskWaits.ended(api, taskId).get("status").asString()).isEqualTo("SUCCEEDED");
        return taskId;
    }

    /** @return the task of the timer's first submitted run, once there is one */
    private String awaitRunTask(String timerId) throws InterruptedException {
        Predicate<JsonNode> submitted = run -> run.hasNonNull("task_id");
        return TaskWaits.timerRuns(api, timerId, runs -> runs.stream().anyMatch(submitted)).stream()
                .filter(submitted)
                .findFirst()
                .orElseThrow()
                .get("task_id")
                .asString();
    }

    private static Map<String, Object> timerDocument(
            String name, String notifyOn, String sourcePath, String destinationPath) {
        Map<String, Object> timer = new HashMap<>();
        timer.put("timer_type", "transfer");
        timer.put("name", name);
        timer.put("schedule", Map.of("type", "once"));
        timer.put("body", transfer("admin#mail-a", "admin#mail-b", sourcePath, destinationPath, true, null));
        if (notifyOn != null) {
            timer.put("notify_on", notifyOn);
        }
        return Map.of("timer", timer);
    }

    private MimeMessage awaitMessage(String label) {
        return await().atMost(PATIENCE)
                .pollInterval(Duration.ofMillis(100))
                .alias("a message about '" + label + "'")
                .until(
                        () -> java.util.Arrays.stream(smtp.received())
                                .filter(message -> subject(message).contains(label))
                                .findFirst(),
                        java.util.Optional::isPresent)
                .orElseThrow();
    }

    private JsonNode awaitEvent(String taskId, String code) throws InterruptedException {
        return awaitEvent(taskId, code, "");
    }

    /** @return the task's first event of this code whose description contains the text */
    private JsonNode awaitEvent(String taskId, String code, String text) {
        return await().atMost(PATIENCE)
                .pollInterval(Duration.ofMillis(100))
                .alias("a " + code + " event with '" + text + "' for task " + taskId)
                .until(
                        () -> {
                            for (JsonNode event : api.get("/v0.10/task/" + taskId + "/event_list?limit=1000")
                                    .body()
                                    .get("DATA")) {
                                if (code.equals(event.get("code").asString())
                                        && event.get("description").asString().contains(text)) {
                                    return event;
                                }
                            }
                            return null;
                        },
                        java.util.Objects::nonNull);
    }

    private static String subject(MimeMessage message) {
        try {
            return String.valueOf(message.getSubject());
        } catch (jakarta.mail.MessagingException e) {
            throw new IllegalStateException(e);
        }
    }

    private List<String> eventCodes(String taskId) {
        return api.get("/v0.10/task/" + taskId + "/event_list")
                .body()
                .get("DATA")
                .findValuesAsString("code");
    }

    /** @return the first part of the MIME type in the message's tree, as text */
    private static String part(Part part, String type) throws Exception {
        if (part.isMimeType(type)) {
            return (String) part.getContent();
        }
        if (part.isMimeType("multipart/*")) {
            Multipart multipart = (Multipart) part.getContent();
            for (int i = 0; i < multipart.getCount(); i++) {
                BodyPart child = multipart.getBodyPart(i);
                String found = partOrNull(child, type);
                if (found != null) {
                    return found;
                }
            }
        }
        throw new AssertionError("no " + type + " part");
    }

    private static String partOrNull(Part part, String type) throws Exception {
        try {
            return part(part, type);
        } catch (AssertionError e) {
            return null;
        }
    }

    private JsonNode runToEnd(Map<String, Object> transfer) throws InterruptedException {
        ApiClient.Answer accepted = api.post("/v0.10/transfer", transfer);
        assertThat(accepted.status()).as(String.valueOf(accepted.body())).isEqualTo(202);
        return TaskWaits.ended(api, accepted.body().get("task_id").asString());
    }

    private static Map<String, Object> transfer(
            String source,
            String destination,
            String sourcePath,
            String destinationPath,
            boolean recursive,
            String label) {
        Map<String, Object> doc = new HashMap<>();
        doc.put("DATA_TYPE", "transfer");
        doc.put("source_endpoint", source);
        doc.put("destination_endpoint", destination);
        if (label != null) {
            doc.put("label", label);
        }
        doc.put(
                "DATA",
                List.of(Map.of(
                        "DATA_TYPE",
                        "transfer_item",
                        "source_path",
                        sourcePath,
                        "destination_path",
                        destinationPath,
                        "recursive",
                        recursive)));
        return doc;
    }
}
