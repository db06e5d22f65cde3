package org.ferry.cli;

import org.ferry.cli.output.Json;
import org.ferry.cli.output.Sizes;
import tools.jackson.databind.JsonNode;

/**
 * The progress figures of one task document, as {@code ferry wait} shows them.
 *
 * @param status {@code ACTIVE}, {@code SUCCEEDED}, {@code FAILED} (or any other the API adds)
 * @param niceStatus {@code Queued}, {@code OK}, an error code, or empty
 * @param filesDone files transferred plus files skipped by the sync level
 * @param files files found so far (0 while the source is still being crawled)
 * @param bytesTransferred bytes moved so far
 * @param bytesPerSecond the API's effective rate, bytes per second
 * @param faults faults (retried errors) so far
 * @param niceStatusDetails while the task waits, why (the limit it is queued behind, or the fault
 *     it backs off after and until when); else empty
 */
public record TaskProgress(
        String status,
        String niceStatus,
        long filesDone,
        long files,
        long bytesTransferred,
        long bytesPerSecond,
        long faults,
        String niceStatusDetails) {

    /** The figures of a task that does not wait (no {@code nice_status_details}). */
    public TaskProgress(
            String status,
            String niceStatus,
            long filesDone,
            long files,
            long bytesTransferred,
            long bytesPerSecond,
            long faults) {
        this(status, niceStatus, filesDone, files, bytesTransferred, bytesPerSecond, faults, "");
    }

    /**
     * Reads the figures from a task document.
     *
     * @param task a task document
     * @return its progress
     */
    public static TaskProgress of(JsonNode task) {
        return new TaskProgress(
                Json.text(task, "status"),
                Json.text(task, "nice_status"),
                Json.number(task, "files_transferred") + Json.number(task, "files_skipped"),
                Json.number(task, "files"),
                Json.number(task, "bytes_transferred"),
                Json.number(task, "effective_bytes_per_second"),
                Json.number(task, "faults"),
                Json.text(task, "nice_status_details"));
    }

    /** @return whether the task has ended, successfully or not */
    public boolean ended() {
        return "SUCCEEDED".equals(status) || "FAILED".equals(status);
    }

    /** @return e.g. {@code ACTIVE (OK): 12/40 files, 1.2 GiB, 85.3 MiB/s, 0 faults} */
    public String summary() {
        String state = niceStatus.isEmpty() ? status : status + " (" + niceStatus + ")";
        return state + ": " + figures() + (niceStatusDetails.isEmpty() ? "" : "; " + niceStatusDetails);
    }

    /** @return e.g. {@code 12/40 files, 1.2 GiB, 85.3 MiB/s, 0 faults} */
    public String figures() {
        return filesDone + "/" + files + " files, " + Sizes.bytes(bytesTransferred) + ", " + Sizes.rate(bytesPerSecond)
                + ", " + faults + " faults";
    }

    /**
     * The fraction of files done.
     *
     * @return 0 to 1, or -1 while the number of files is not known yet
     */
    public double fraction() {
        return files <= 0 ? -1 : Math.min(1.0, (double) filesDone / files);
    }
}
