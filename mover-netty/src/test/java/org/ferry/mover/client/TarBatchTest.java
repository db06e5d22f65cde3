package org.ferry.mover.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.ferry.mover.testing.LeakCapture;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Third-party batches between two Ferry servers where small files travel as tar streams (ERET TAR /
 * ESTO TAR, {@link org.ferry.mover.protocol.TarModule}): every file arrives intact, each is reported
 * once, and a tar step that fails falls back to one transfer per file.
 */
class TarBatchTest extends TwoFerryServers {

    final Map<String, byte[]> contents = new LinkedHashMap<>();

    @BeforeEach
    void start() throws IOException {
        Files.createDirectories(sourceRoot.resolve("one"));
        Files.createDirectories(sourceRoot.resolve("two"));
        Files.createDirectories(destinationRoot.resolve("one"));
        Files.createDirectories(destinationRoot.resolve("two"));
        Random random = new Random(11);
        for (int i = 0; i < 120; i++) {
            String dir = i % 3 == 0 ? "two" : "one";
            String name = switch (i) {
                case 1 -> "with space";
                case 2 -> "ünïcødé+%";
                case 4 -> "big.dat";
                default -> "f" + i;
            };
            byte[] data = new byte[i == 4 ? 3_000_000 : i == 5 ? 0 : random.nextInt(80_000)];
            random.nextBytes(data);
            contents.put("/" + dir + "/" + name, data);
            Files.write(sourceRoot.resolve(dir).resolve(name), data);
        }
    }

    /**
     * Tar entries carry the time of archiving, not the source's: after a tar batch, one pipelined
     * MFMT exchange gives every file the time asked for, and a path the destination lacks is
     * refused (550) on its own while the others are set.
     */
    @Test
    void oneMfmtExchangeAfterATarBatchSetsEveryTimeAndRefusesAMissingPathAlone() throws Exception {
        List<FilePair> files = new ArrayList<>();
        for (String path : contents.keySet()) {
            if (path.startsWith("/one/") && contents.get(path).length < 1_000_000) {
                files.add(new FilePair(path, path, contents.get(path).length));
            }
        }
        List<String> paths =
                new ArrayList<>(files.stream().map(FilePair::destination).toList());
        List<Instant> times = new ArrayList<>();
        for (int i = 0; i < paths.size(); i++) {
            times.add(Instant.parse("2003-04-05T06:07:08Z").plus(Duration.ofHours(i)));
        }
        paths.add(5, "/one/never-sent");
        times.add(5, Instant.parse("2000-01-01T00:00:00Z"));
        try (DefaultGridFtpSession src = open(source);
                DefaultGridFtpSession dst = open(destination)) {
            src.sendAll(files, dst, TransferOptions.extendedBlock(2), 8, TransferListener.NONE);
            assertThat(src.tarSteps()).isEqualTo(1);
            GridFtpReplyException[] refusals = dst.setModifiedTimes(paths, times);
            assertThat(refusals).hasSize(paths.size());
            assertThat(refusals[5]).isNotNull();
            assertThat(refusals[5].replyCode()).isEqualTo(550);
            assertThat(refusals[5].command()).isEqualTo("MFMT 20000101000000 /one/never-sent");
            for (int i = 0; i < paths.size(); i++) {
                if (i == 5) {
                    continue;
                }
                assertThat(refusals[i]).as(paths.get(i)).isNull();
                assertThat(Files.getLastModifiedTime(
                                        destinationRoot.resolve(paths.get(i).substring(1)))
                                .toInstant())
                        .as(paths.get(i))
                        .isEqualTo(times.get(i));
            }
            // the session is still in step: the next command gets its own reply
            assertThat(dst.sizes(List.of(paths.get(0)))[0])
                    .isEqualTo(files.get(0).sizeBytes());
        }
    }

    @Test
    void smallFilesTravelAsTarStreamsAndArriveIntact() throws Exception {
        List<FilePair> files = new ArrayList<>();
        long total = 0;
        for (Map.Entry<String, byte[]> file : contents.entrySet()) {
            // half the sizes known from a listing, half asked with SIZE
            files.add(
                    files.size() % 2 == 0
                            ? new FilePair(file.getKey(), file.getKey())
                            : new FilePair(file.getKey(), file.getKey(), file.getValue().length));
            total += file.getValue().length;
        }
        try (LeakCapture leaks = LeakCapture.open();
                DefaultGridFtpSession src = open(source);
                DefaultGridFtpSession dst = open(destination)) {
            PipeliningTest.Completions completions = new PipeliningTest.Completions();
            assertThat(src.sendAll(files, dst, TransferOptions.extendedBlock(2), 4, completions))
                    .isEqualTo(total);
            assertThat(completions.files).containsExactlyInAnyOrderElementsOf(contents.keySet());
            assertThat(completions.bytes).isEqualTo(total);
            assertThat(src.tarSteps()).as("one tar step per directory pair").isEqualTo(2);
            for (Map.Entry<String, byte[]> file : contents.entrySet()) {
                assertThat(Files.readAllBytes(
                                destinationRoot.resolve(file.getKey().substring(1))))
                        .as(file.getKey())
                        .isEqualTo(file.getValue());
            }
            // the cached connections stay usable: a second batch, without tar streams, reuses them
            int setups = src.dataSetups();
            assertThat(src.sendAll(
                            files.subList(0, 10),
                            dst,
                            TransferOptions.extendedBlock(2).withTarStreams(false),
                            4,
                            TransferListener.NONE))
                    .isPositive();
            assertThat(src.tarSteps()).isEqualTo(2);
            assertThat(src.dataSetups()).isEqualTo(setups);
            leaks.assertNoLeaks();
        }
    }

    @Test
    void aFailedTarStepFallsBackToOneTransferPerFile() throws Exception {
        List<FilePair> files = new ArrayList<>();
        for (int i = 10; i < 20; i++) {
            String path = "/one/f" + i;
            if (contents.containsKey(path)) {
                files.add(new FilePair(path, path, contents.get(path).length));
            }
        }
        String missing = "/one/gone";
        files.add(3, new FilePair(missing, missing, 100)); // a size from a stale listing
        try (DefaultGridFtpSession src = open(source);
                DefaultGridFtpSession dst = open(destination)) {
            PipeliningTest.Completions completions = new PipeliningTest.Completions();
            assertThatThrownBy(() -> src.sendAll(files, dst, TransferOptions.extendedBlock(1), 4, completions))
                    .isInstanceOf(GridFtpReplyException.class)
                    .hasMessageContaining("RETR " + missing);
            assertThat(src.tarSteps()).isEqualTo(1);
            // the files before the missing one moved one by one after the tar step failed
            assertThat(completions.files)
                    .containsExactly(
                            files.get(0).source(),
                            files.get(1).source(),
                            files.get(2).source());
            for (int i = 0; i < 3; i++) {
                assertThat(Files.readAllBytes(destinationRoot.resolve(
                                files.get(i).destination().substring(1))))
                        .isEqualTo(contents.get(files.get(i).source()));
            }
            // the sessions are in step
            src.sendTo("/one/f10", dst, "/again", TransferOptions.extendedBlock(1), TransferListener.NONE);
            assertThat(Files.readAllBytes(destinationRoot.resolve("again"))).isEqualTo(contents.get("/one/f10"));
        }
    }
}
