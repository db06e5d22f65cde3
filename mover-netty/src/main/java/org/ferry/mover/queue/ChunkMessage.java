package org.ferry.mover.queue;

import java.util.List;
import java.util.Objects;
import java.util.UUID;
import org.ferry.mover.client.GridFtpUrl;
import org.ferry.mover.protocol.ByteRange;
import org.ferry.mover.runner.ChunkRequest;
import org.ferry.mover.runner.ChunkTuning;
import org.ferry.mover.runner.FileTransfer;

/**
 * A chunk to move: self-contained, so a mover needs no database (ARCHITECTURE.md "State and the
 * work queue"). Keyed by {@code chunkId} on the chunks topic.
 *
 * @param v message version ({@link MessageCodec#VERSION})
 * @param chunkId the chunk's id, unique for the service's life; a chunk offered again after a
 *     lost mover gets a new id
 * @param taskId the task
 * @param source the source endpoint's server with its login
 * @param destination the destination endpoint's server with its login
 * @param tuning concurrency, parallelism, pipelining
 * @param verifyChecksum compare MD5 checksums after each file
 * @param deadlineEpochMillis the task's deadline (the mover stops by itself then), or null
 * @param files the files, smallest first
 */
public record ChunkMessage(
        int v,
        long chunkId,
        UUID taskId,
        Login source,
        Login destination,
        ChunkTuning tuning,
        boolean verifyChecksum,
        Long deadlineEpochMillis,
        List<File> files) {

    /** Checks the required values and copies the list. */
    public ChunkMessage {
        Objects.requireNonNull(taskId, "taskId");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(destination, "destination");
        Objects.requireNonNull(tuning, "tuning");
        files = List.copyOf(files);
    }

    /**
     * An endpoint's GridFTP server and login.
     *
     * @param scheme {@code ftp} or {@code gsiftp}
     * @param host host name or address
     * @param port control port
     * @param username user name
     * @param password password (clear: secure the transport that carries chunk messages)
     */
    public record Login(String scheme, String host, int port, String username, String password) {

        /** @return the login for {@code url} */
        public static Login of(GridFtpUrl url) {
            return new Login(url.scheme(), url.host(), url.port(), url.username(), url.password());
        }

        /** @return the URL of the server's root */
        public GridFtpUrl url() {
            return new GridFtpUrl(scheme, host, port, username, password, "/");
        }

        @Override
        public String toString() {
            return scheme + "://" + username + "@" + host + ":" + port; // never the password
        }
    }

    /**
     * One file of the chunk.
     *
     * @param id the file's (subtask's) id
     * @param sourcePath absolute source path
     * @param destinationPath absolute destination path
     * @param sizeBytes planned size
     * @param acknowledged ranges the destination acknowledged before ({@code a-b,c-d}, end exclusive), or empty
     * @param attempts attempts made before
     */
    public record File(
            long id, String sourcePath, String destinationPath, long sizeBytes, String acknowledged, int attempts) {

        /** @return the file as the chunk runner takes it */
        public FileTransfer toTransfer() {
            List<ByteRange> ranges =
                    acknowledged == null || acknowledged.isBlank() ? List.of() : ByteRange.parseList(acknowledged);
            return new FileTransfer(id, sourcePath, destinationPath, sizeBytes, ranges, attempts);
        }
    }

    /** @return the chunk as the chunk runner takes it */
    public ChunkRequest toRequest() {
        return new ChunkRequest(
                source.url(),
                destination.url(),
                files.stream().map(File::toTransfer).toList(),
                tuning,
                verifyChecksum);
    }
}
