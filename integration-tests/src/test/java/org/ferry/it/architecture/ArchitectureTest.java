package org.ferry.it.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.core.importer.Location;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The module rules of ARCHITECTURE.md ("Dependencies point one way: gsi-security <- mover-netty
 * <- transfer-api <- scheduler <- webapp; cli depends on no other module") and no package cycles in
 * any module, checked on the main classes of every module (the jars and class folders on this
 * module's test class path; test classes and test-jars are left out).
 */
class ArchitectureTest {

    private static final String GSI = "org.ferry.gsi..";
    private static final String MOVER = "org.ferry.mover..";
    private static final String API = "org.ferry.api..";
    private static final String SCHEDULER = "org.ferry.scheduler..";
    private static final String WEBAPP = "org.ferry.server..";
    private static final String CLI = "org.ferry.cli..";

    private static JavaClasses ferry;

    @BeforeAll
    static void importMainClasses() {
        ferry = new ClassFileImporter()
                .withImportOption(ArchitectureTest::isMainCode)
                .importPackages("org.ferry");
    }

    /** Main classes only: no test-classes folder, no {@code -tests.jar}. */
    private static boolean isMainCode(Location location) {
        return !location.contains("/test-classes/")
                && !location.matches(java.util.regex.Pattern.compile(".*-tests\\.jar.*"))
                && new ImportOption.DoNotIncludeTests().includes(location);
    }

    /** Every package of every module: a package never depends, even indirectly, on itself. */
    @Test
    void noPackageCycles() {
        slices().matching("org.ferry.(**)").should().beFreeOfCycles().check(ferry);
    }

    @Test
    void gsiSecurityDependsOnNoOtherModule() {
        noClasses()
                .that()
                .resideInAPackage(GSI)
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(MOVER, API, SCHEDULER, WEBAPP, CLI)
                .check(ferry);
    }

    @Test
    void theMoverKnowsNoService() {
        noClasses()
                .that()
                .resideInAPackage(MOVER)
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        API,
                        SCHEDULER,
                        WEBAPP,
                        CLI,
                        "org.springframework..",
                        "jakarta.persistence..",
                        "org.hibernate..")
                .check(ferry);
    }

    /** ferry-mover's Kafka adapter is the mover's only Kafka code: the runner and the queue protocol know no transport. */
    @Test
    void onlyTheMoverMainsUseKafka() {
        noClasses()
                .that()
                .resideInAPackage(MOVER)
                .and()
                .resideOutsideOfPackage("org.ferry.mover.app..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("org.apache.kafka..")
                .check(ferry);
    }

    /** Jackson (optional in mover-netty) only for the work-queue messages and the mains. */
    @Test
    void onlyTheQueueProtocolAndTheMainsUseJacksonInTheMover() {
        noClasses()
                .that()
                .resideInAPackage(MOVER)
                .and()
                .resideOutsideOfPackages("org.ferry.mover.app..", "org.ferry.mover.queue..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("tools.jackson..", "com.fasterxml.jackson..")
                .check(ferry);
    }

    /** The chunk runner knows no Spring, JPA, Kafka nor JSON: both movers run it as it is. */
    @Test
    void theChunkRunnerKnowsNoFrameworks() {
        noClasses()
                .that()
                .resideInAPackage("org.ferry.mover.runner..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "org.springframework..",
                        "jakarta.persistence..",
                        "org.hibernate..",
                        "org.apache.kafka..",
                        "tools.jackson..",
                        "org.ferry.mover.queue..",
                        "org.ferry.mover.app..")
                .check(ferry);
    }

    @Test
    void onlyTheMoverMainsUsePicocliAndLogback() {
        noClasses()
                .that()
                .resideInAPackage(MOVER)
                .and()
                .resideOutsideOfPackage("org.ferry.mover.app..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("picocli..", "ch.qos.logback..")
                .check(ferry);
    }

    @Test
    void theApiKnowsNoScheduler() {
        noClasses()
                .that()
                .resideInAPackage(API)
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(SCHEDULER, WEBAPP, CLI)
                .check(ferry);
    }

    /** The API's services and identity know nothing of HTTP: they throw domain exceptions. */
    @Test
    void theApiServicesKnowNoHttp() {
        noClasses()
                .that()
                .resideInAnyPackage("org.ferry.api.service..", "org.ferry.api.identity..", "org.ferry.api.error..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "org.ferry.api.web..",
                        "org.ferry.api.security..",
                        "org.springframework.web..",
                        "org.springframework.http..",
                        "jakarta.servlet..")
                .check(ferry);
    }

    @Test
    void theSchedulerKnowsNoWebApp() {
        noClasses()
                .that()
                .resideInAPackage(SCHEDULER)
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(WEBAPP, CLI)
                .check(ferry);
    }

    @Test
    void theCliTalksRestOnly() {
        noClasses()
                .that()
                .resideInAPackage(CLI)
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(GSI, MOVER, API, SCHEDULER, WEBAPP)
                .check(ferry);
    }

    /** The web pages call the API's services, as its controllers do: never a controller, a repository or the scheduler. */
    @Test
    void thePagesCallTheServices() {
        noClasses()
                .that()
                .resideInAPackage("org.ferry.server.pages..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("org.ferry.api.web..", "org.ferry.api.repository..", "org.ferry.scheduler..")
                .check(ferry);
    }

    /**
     * One owner of task state (issue 30): the repositories of the task, its items, events and file
     * rows are read-only (no save, no update), so that every write goes through the store.
     */
    @Test
    void theTaskRepositoriesAreReadOnly() {
        noClasses()
                .that()
                .resideInAPackage("org.ferry.api.repository..")
                .and()
                .haveSimpleNameStartingWith("Task")
                .or()
                .haveSimpleNameStartingWith("TransferFile")
                .or()
                .haveSimpleNameStartingWith("TransferItem")
                .or()
                .haveSimpleNameStartingWith("DeleteItem")
                .should()
                .beAssignableTo(org.springframework.data.repository.CrudRepository.class)
                .orShould()
                .beAssignableTo(org.springframework.data.jpa.repository.JpaRepository.class)
                .check(ferry);
    }

    /**
     * Wire documents stop at the controllers (issue 30): services and the scheduler take and return
     * domain records ({@code org.ferry.api.command}), never a {@code /v0.10} JSON shape.
     */
    @Test
    void noServiceOrSchedulerClassSeesAWireDocument() {
        noClasses()
                .that()
                .resideInAnyPackage("org.ferry.api.service..", SCHEDULER)
                .should()
                .dependOnClassesThat()
                .resideInAPackage("org.ferry.api.document..")
                .check(ferry);
    }

    /**
     * No bean cycle broken with a lazy lookup in the scheduler (issue 30): the work queue is started
     * with the port its results go to, so nothing there needs an {@code ObjectProvider}.
     */
    @Test
    void theSchedulerBreaksNoBeanCycleWithAnObjectProvider() {
        noClasses()
                .that()
                .resideInAPackage(SCHEDULER)
                .should()
                .dependOnClassesThat()
                .areAssignableTo(org.springframework.beans.factory.ObjectProvider.class)
                .check(ferry);
    }

    /** Tables whose rows only {@code org.ferry.api.store} writes. */
    private static final Pattern TASK_TABLE_WRITE = Pattern.compile(
            "(?i)\\b(insert\\s+into|update|delete\\s+from)\\s+(task|task_event|transfer_item|delete_item|transfer_file|chunk)\\b");

    /**
     * One owner of task state (issue 30): no main class outside the store holds SQL that writes the
     * task, item, event, file or chunk tables (JPQL and SQL alike; the class files do not show
     * their strings, so the sources are read).
     */
    @Test
    void onlyTheStoreWritesTaskFileAndChunkRows() throws IOException {
        Path root = Path.of(System.getProperty("ferry.repo.root", ".."))
                .toAbsolutePath()
                .normalize();
        Path store = root.resolve("transfer-api/src/main/java/org/ferry/api/store");
        List<String> writers = new ArrayList<>();
        for (String module : List.of("transfer-api", "scheduler", "webapp", "mover-netty", "cli")) {
            Path sources = root.resolve(module).resolve("src/main/java");
            try (Stream<Path> files = Files.walk(sources)) {
                for (Path file : files.filter(f -> f.toString().endsWith(".java") && !f.startsWith(store))
                        .toList()) {
                    Matcher write = TASK_TABLE_WRITE.matcher(Files.readString(file));
                    while (write.find()) {
                        writers.add(root.relativize(file) + ": " + write.group());
                    }
                }
            }
        }
        assertThat(writers)
                .as("writes of task state outside org.ferry.api.store")
                .isEmpty();
    }
}
