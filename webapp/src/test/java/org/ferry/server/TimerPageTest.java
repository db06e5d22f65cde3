package org.ferry.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The timers page over real HTTP: a timer made through the form is listed with its schedule in
 * words, pauses, resumes and is deleted; a bad cron expression comes back as the page's error
 * naming the field; another user's page does not list it.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class TimerPageTest {

    private static final Path HOME = TestHomes.create("ferry-timer-page");

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("ferry.home", HOME::toString);
    }

    @LocalServerPort
    int port;

    @Test
    void aTimerIsMadePausedResumedAndDeletedFromThePage() throws Exception {
        PageClient fay = PageClient.signedIn(port, HOME, "fay", "fays-password");
        int nothingListens;
        try (ServerSocket socket = new ServerSocket(0)) {
            nothingListens = socket.getLocalPort();
        }
        for (String name : new String[] {"lab", "hpc"}) {
            assertThat(fay.post("/endpoints", "name", name, "url", "ftp://127.0.0.1:" + nothingListens)
                            .statusCode())
                    .isEqualTo(302);
        }
        String empty = fay.page("/timers");
        assertThat(empty).contains("No timers yet", "fay#lab", "fay#hpc");
        String lab = option(empty, "fay#lab");
        String hpc = option(empty, "fay#hpc");

        HttpResponse<String> made = fay.post(
                "/timers",
                "name",
                "nightly",
                "source",
                lab,
                "sourcePath",
                "/instrument/",
                "destination",
                hpc,
                "destinationPath",
                "/archive/",
                "recursive",
                "true",
                "syncLevel",
                "mtime",
                "scheduleType",
                "recurring",
                "intervalHours",
                "12");
        assertThat(made.statusCode()).isEqualTo(302);
        String listed = fay.page("/timers");
        assertThat(listed).contains("Timer nightly was created.");
        assertThat(PageClient.row(listed, "data-timer", "nightly")).contains("every 12 h", ">active<", "Pause");

        String id = timerId(listed);
        fay.post("/timers/" + id + "/pause");
        assertThat(PageClient.row(fay.page("/timers"), "data-timer", "nightly")).contains(">inactive<", "Resume");
        fay.post("/timers/" + id + "/resume");
        assertThat(PageClient.row(fay.page("/timers"), "data-timer", "nightly")).contains(">active<", "Pause");

        fay.post(
                "/timers",
                "name",
                "broken",
                "source",
                lab,
                "sourcePath",
                "/x/",
                "destination",
                hpc,
                "destinationPath",
                "/y/",
                "scheduleType",
                "cron",
                "cron",
                "not a cron",
                "timeZone",
                "Europe/Berlin");
        String refused = fay.page("/timers");
        assertThat(refused).contains("cron_expression").doesNotContain("data-timer=\"broken\"");

        PageClient gus = PageClient.signedIn(port, HOME, "gus", "guss-password");
        assertThat(gus.page("/timers")).contains("No timers yet").doesNotContain("data-timer=\"nightly\"");

        fay.post("/timers/" + id + "/delete");
        String gone = fay.page("/timers");
        assertThat(gone).contains("Timer nightly was deleted.").doesNotContain("data-timer=\"nightly\"");
    }

    private static String option(String page, String endpoint) {
        Matcher option = Pattern.compile("<option value=\"([^\"]+)\">" + Pattern.quote(endpoint) + "</option>")
                .matcher(page);
        assertThat(option.find()).as(endpoint + " offered").isTrue();
        return option.group(1);
    }

    private static String timerId(String page) {
        Matcher id = Pattern.compile("/timers/([0-9a-f-]{36})/pause").matcher(page);
        assertThat(id.find()).isTrue();
        return id.group(1);
    }
}
