package org.ferry.api.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.ferry.api.command.DeleteSubmission;
import org.ferry.api.command.TransferSubmission;
import org.ferry.api.document.DeleteRequest;
import org.ferry.api.document.TransferRequest;
import org.ferry.api.domain.SyncLevel;
import org.ferry.api.error.FerryException;
import org.ferry.api.error.InvalidRequestException;
import org.ferry.api.error.NotSupportedException;
import org.ferry.api.service.ApiLimits;
import org.ferry.mover.protocol.ChecksumAlgorithm;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * Every field of a transfer or delete document is honoured or refused by name: a deadline that
 * has passed and a path that climbs above the root are 400s naming the field (they used to be
 * accepted and fail later), and a stored timer body reads back as the submission it was.
 */
class TransferDocumentsTest {

    static final Instant NOW = Instant.parse("2030-01-01T12:00:00Z");

    final TransferDocuments documents = new TransferDocuments(
            new ApiLimits(10_000, 1000, 100), JsonMapper.builder().build(), Clock.fixed(NOW, ZoneOffset.UTC));

    static final JsonMapper JSON = JsonMapper.builder().build();

    /** @return a transfer document of the fields given, and one item */
    static TransferRequest document(Map<String, Object> fields, String sourcePath, String destinationPath) {
        Map<String, Object> document = new java.util.HashMap<>(fields);
        document.put("DATA_TYPE", "transfer");
        document.put("source_endpoint", "a#src");
        document.put("destination_endpoint", "a#dst");
        document.put(
                "DATA",
                List.of(Map.of(
                        "DATA_TYPE",
                        "transfer_item",
                        "source_path",
                        sourcePath,
                        "destination_path",
                        destinationPath,
                        "recursive",
                        true)));
        return JSON.convertValue(document, TransferRequest.class);
    }

    /** @return a transfer with a label, sync level mtime, checksums, no mail on failure, and a deadline (or none) */
    static TransferRequest transfer(String deadline, String sourcePath, String destinationPath) {
        Map<String, Object> fields = new java.util.HashMap<>(
                Map.of("label", "label", "sync_level", "mtime", "verify_checksum", true, "notify_on_failed", false));
        if (deadline != null) {
            fields.put("deadline", deadline);
        }
        return document(fields, sourcePath, destinationPath);
    }

    private static String field(Runnable mapping) {
        try {
            mapping.run();
        } catch (FerryException e) {
            return e.field();
        }
        throw new AssertionError("accepted");
    }

    @Test
    void aDeadlineThatHasPassedIsRefusedByName() {
        assertThat(field(() -> documents.submission(transfer("2029-12-31T23:59:59Z", "/a", "/b"))))
                .isEqualTo("deadline");
        assertThat(field(() -> documents.submission(transfer(NOW.toString(), "/a", "/b"))))
                .as("now is not to come")
                .isEqualTo("deadline");
        assertThat(documents
                        .submission(transfer("2030-01-02T00:00:00Z", "/a", "/b"))
                        .deadline())
                .isEqualTo(Instant.parse("2030-01-02T00:00:00Z"));
    }

    @Test
    void aPathClimbingAboveTheRootIsRefusedByNameAndDotsAreResolved() {
        assertThat(field(() -> documents.submission(transfer(null, "/../etc/passwd", "/b"))))
                .isEqualTo("DATA[0].source_path");
        assertThat(field(() -> documents.submission(transfer(null, "/a", "/x/../../b"))))
                .isEqualTo("DATA[0].destination_path");
        TransferSubmission.Item item = documents
                .submission(transfer(null, "/data/./run1/../run2/", "//copy//x/.."))
                .items()
                .get(0);
        assertThat(item.sourcePath()).isEqualTo("/data/run2");
        assertThat(item.destinationPath()).isEqualTo("/copy");
    }

    @Test
    void optionsFerryLacksAreRefusedByName() {
        TransferRequest local = document(Map.of("source_local_user", "u"), "/a", "/b");
        assertThatThrownBy(() -> documents.submission(local))
                .isInstanceOf(NotSupportedException.class)
                .extracting(e -> ((FerryException) e).field())
                .isEqualTo("source_local_user");
    }

    @Test
    void failOnQuotaErrorsIsTakenAndWrittenBack() {
        TransferSubmission sent = documents.submission(document(Map.of("fail_on_quota_errors", true), "/a", "/b"));
        assertThat(sent.options().failOnQuotaErrors()).isTrue();
        assertThat(documents.read(documents.write(sent)).options().failOnQuotaErrors())
                .isTrue();
        assertThat(documents.submission(transfer(null, "/a", "/b")).options().failOnQuotaErrors())
                .isFalse();
    }

    /** @return a document of one file item with the item fields given, and the document fields given */
    static TransferRequest fileItem(Map<String, Object> fields, Map<String, Object> itemFields) {
        Map<String, Object> item = new java.util.HashMap<>(itemFields);
        item.put("source_path", "/a");
        item.put("destination_path", "/b");
        Map<String, Object> document = new java.util.HashMap<>(fields);
        document.put("source_endpoint", "a#src");
        document.put("destination_endpoint", "a#dst");
        document.put("DATA", List.of(item));
        return JSON.convertValue(document, TransferRequest.class);
    }

    @Test
    void checksumAlgorithmAndAGivenChecksumAreTakenCheckedAndWrittenBack() {
        TransferSubmission sent = documents.submission(
                fileItem(Map.of("checksum_algorithm", "adler32"), Map.of("external_checksum", "0A1B2C3D")));
        assertThat(sent.options().checksumAlgorithm()).isEqualTo(ChecksumAlgorithm.ADLER32);
        assertThat(sent.items().get(0).externalChecksum()).isEqualTo("0a1b2c3d");
        assertThat(documents.read(documents.write(sent))).isEqualTo(sent);
        // named by the item only; absent: MD5
        assertThat(documents
                        .submission(fileItem(Map.of(), Map.of("checksum_algorithm", "Sha512")))
                        .options()
                        .checksumAlgorithm())
                .isEqualTo(ChecksumAlgorithm.SHA512);
        assertThat(documents.submission(fileItem(Map.of(), Map.of())).options().checksumAlgorithm())
                .isEqualTo(ChecksumAlgorithm.MD5);
        Map<TransferRequest, String> refused = new java.util.LinkedHashMap<>();
        refused.put(fileItem(Map.of("checksum_algorithm", "CRC32"), Map.of()), "checksum_algorithm");
        refused.put(fileItem(Map.of(), Map.of("checksum_algorithm", "sha3")), "DATA[0].checksum_algorithm");
        refused.put(
                fileItem(Map.of("checksum_algorithm", "MD5"), Map.of("checksum_algorithm", "SHA1")),
                "DATA[0].checksum_algorithm");
        refused.put(fileItem(Map.of(), Map.of("external_checksum", "0a1b2c3d")), "DATA[0].external_checksum");
        refused.put(
                fileItem(Map.of("checksum_algorithm", "ADLER32"), Map.of("external_checksum", "0a1b2c3g")),
                "DATA[0].external_checksum");
        refused.put(
                fileItem(Map.of(), Map.of("external_checksum", "0".repeat(32), "recursive", true)),
                "DATA[0].external_checksum");
        refused.forEach((document, field) -> assertThatThrownBy(() -> documents.submission(document))
                .as(field)
                .isInstanceOf(InvalidRequestException.class)
                .extracting(e -> ((FerryException) e).field())
                .isEqualTo(field));
    }

    @Test
    void additionalDestinationsAreTakenCheckedAndWrittenBack() {
        String field = TransferDocuments.ADDITIONAL_DESTINATIONS;
        TransferSubmission sent = documents.submission(
                document(Map.of(field, List.of("a#d2", "a#d3"), "verify_checksum", true), "/a", "/b"));
        assertThat(sent.additionalDestinationEndpoints()).containsExactly("a#d2", "a#d3");
        assertThat(documents.read(documents.write(sent))).isEqualTo(sent);
        assertThat(documents
                        .submission(document(Map.of(field, List.of()), "/a", "/b"))
                        .isMulticast())
                .isFalse();
        Map<TransferRequest, String> refused = new java.util.LinkedHashMap<>();
        refused.put(document(Map.of(field, List.of("a#d2", "a#d2")), "/a", "/b"), field + "[1]");
        refused.put(document(Map.of(field, List.of("a#dst")), "/a", "/b"), field + "[0]");
        refused.put(document(Map.of(field, List.of("a#d2", " ")), "/a", "/b"), field + "[1]");
        refused.put(
                document(
                        Map.of(
                                field,
                                java.util.stream.IntStream.range(0, 16)
                                        .mapToObj(i -> "a#d" + i)
                                        .toList()),
                        "/a",
                        "/b"),
                field);
        for (Map<String, Object> option : List.<Map<String, Object>>of(
                Map.of("sync_level", "size"),
                Map.of("preserve_timestamp", true),
                Map.of("encrypt_data", true),
                Map.of("delete_destination_extra", true))) {
            Map<String, Object> fields = new java.util.HashMap<>(option);
            fields.put(field, List.of("a#d2"));
            refused.put(document(fields, "/a", "/b"), field);
        }
        refused.forEach((document, named) -> assertThatThrownBy(() -> documents.submission(document))
                .as(named + " " + document)
                .isInstanceOf(InvalidRequestException.class)
                .extracting(e -> ((FerryException) e).field())
                .isEqualTo(named));
    }

    @Test
    void aStoredTimerBodyReadsBackAsTheSubmissionItWas() {
        TransferSubmission sent = documents.submission(transfer("2030-06-01T00:00:00Z", "/a", "/b"));
        TransferSubmission stored = documents.read(documents.write(sent));
        assertThat(stored).isEqualTo(sent);
        assertThat(stored.options().syncLevel()).isEqualTo(SyncLevel.MTIME);
        assertThat(stored.notifyOn().onFailed()).isFalse();
    }

    private DeleteRequest delete(String path, boolean skipActivationCheck) {
        return JsonMapper.builder()
                .build()
                .convertValue(
                        Map.of(
                                "DATA_TYPE",
                                "delete",
                                "endpoint",
                                "a#e",
                                "recursive",
                                true,
                                "skip_activation_check",
                                skipActivationCheck,
                                "DATA",
                                List.of(Map.of("DATA_TYPE", "delete_item", "path", path))),
                        DeleteRequest.class);
    }

    @Test
    void aDeleteOfTheRootOrAboveItIsRefusedByName() {
        assertThat(field(() -> documents.submission(delete("/x/..", false)))).isEqualTo("DATA[0].path");
        assertThatThrownBy(() -> documents.submission(delete("/../x", true)))
                .isInstanceOf(InvalidRequestException.class);
        DeleteSubmission fine = documents.submission(delete("/x/y", true));
        assertThat(fine.skipActivationCheck()).as("honoured, not dropped").isTrue();
        assertThat(fine.paths()).containsExactly("/x/y");
    }
}
