package org.ferry.mover.queue;

import java.util.UUID;

/**
 * What a mover reports about a chunk, on the results topic (keyed by task id). The scheduler
 * applies results idempotently: each is guarded by the chunk id and the file's state or attempt
 * number, so a result delivered twice, or one from a chunk that was taken away from a lost mover,
 * changes nothing.
 *
 * @param v message version
 * @param type what happened
 * @param taskId the task
 * @param chunkId the chunk
 * @param fileId the file ({@link Type#FILE_ARRIVED}, {@link Type#FILE_FAULT}, {@link Type#MARKER}), else 0
 * @param bytes {@link Type#FILE_ARRIVED}: the file's size; {@link Type#PROGRESS}: bytes of the
 *     chunk's files in flight (not yet arrived) now; else 0
 * @param attempt {@link Type#FILE_FAULT}: the attempt's number (counting earlier chunks'), else 0
 * @param willRetry {@link Type#FILE_FAULT}: the mover tries the file again within this chunk
 * @param code {@link Type#FILE_FAULT}: the fault code; {@link Type#CHUNK_DONE}: the transient
 *     fault that stopped the chunk early, if any; {@link Type#SESSION_REFUSED}: the refusal's; else null
 * @param permanent {@link Type#FILE_FAULT}: trying again cannot help
 * @param onSource {@link Type#FILE_FAULT}: the source endpoint reported it
 * @param description {@link Type#FILE_FAULT}, {@link Type#CHUNK_DONE}, {@link Type#SESSION_REFUSED}: one
 *     line, else null
 * @param acknowledged {@link Type#MARKER}, {@link Type#FILE_FAULT}: the ranges the destination
 *     holds ({@code a-b,c-d}), else null
 * @param checksum {@link Type#FILE_ARRIVED}: the checksum both ends reported ({@code ALGORITHM:hex}, e.g. {@code MD5:...}) when
 *     the chunk verifies checksums, else null (absent in messages of earlier releases)
 * @param mover the reporting mover's name
 * @param timeEpochMillis when the mover sent it
 * @param destinations {@link Type#PROGRESS} of a multicast chunk (Ferry's multicast extension):
 *     per destination, the first one first, {@code bytes/files} of the chunk's files in flight
 *     that are there now (bytes held, and files held whole and checked), comma-separated, e.g.
 *     {@code 33554432/1,33554432/1,1048576/0}; {@link Type#FILE_FAULT} of a multicast file: the
 *     same for that file alone, what each destination holds of it now; else null (absent in
 *     messages of earlier releases: a newer field within version 6, which older readers ignore)
 */
public record ResultMessage(
        int v,
        Type type,
        UUID taskId,
        long chunkId,
        long fileId,
        long bytes,
        int attempt,
        boolean willRetry,
        String code,
        boolean permanent,
        boolean onSource,
        String description,
        String acknowledged,
        String checksum,
        String mover,
        long timeEpochMillis,
        String destinations) {

    /** Result kinds. */
    public enum Type {
        /** The file arrived whole. */
        FILE_ARRIVED,
        /** An attempt at the file failed. */
        FILE_FAULT,
        /** The destination acknowledged more of the file (restart markers). */
        MARKER,
        /** The chunk is still being worked (a heartbeat), with its bytes in flight. */
        PROGRESS,
        /** The mover is done with the chunk: its files without a final result go back to the service. */
        CHUNK_DONE,
        /**
         * A server refused a lane's login as busy (421) where no file's fault reports it; the chunk
         * goes on. With {@code code} and {@code description}. Counted against the endpoint pair by
         * the optimizer. (A scheduler of an earlier release drops it: it cannot read the type.)
         */
        SESSION_REFUSED
    }
}
