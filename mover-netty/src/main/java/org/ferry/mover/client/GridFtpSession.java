package org.ferry.mover.client;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.ferry.mover.protocol.FileInfo;

/**
 * A logged-in control channel to one GridFTP server (RFC 959, RFC 3659, GFD.020). Opened by
 * {@link GridFtpClient#open}. Not thread-safe: one command at a time; use one session per
 * concurrent transfer. All paths are absolute paths on the server.
 *
 * <p>Failures: a negative reply throws {@link GridFtpReplyException} (with its code); a missing
 * path answered with 550 throws {@link java.nio.file.NoSuchFileException} where noted; a broken
 * connection or timeout throws {@link IOException}.
 */
public interface GridFtpSession extends Closeable {

    /** @return the URL this session is connected to (no path), for messages */
    GridFtpUrl url();

    /**
     * Striped third-party transfer (GFD.020 "SPAS", "SPOR", "Options to RETR"; gridftp-protocol.md
     * section 3.3 {@code -stripe}): the destination answers {@code SPAS} with one address per
     * stripe and starts {@code STOR}; this session's server (the source) gets
     * {@code OPTS RETR Parallelism=n,n,n;StripeLayout=Blocked;BlockSize=b;}, {@code SPOR} with those
     * addresses, and {@code RETR}. Both sides run in MODE E; each stripe uses {@code parallelism}
     * connections. Works against a single-stripe server too (SPAS then answers one address).
     *
     * @param sourcePath file on this session's server
     * @param destination a session of the same client, to the receiving server
     * @param destinationPath where the destination stores the file
     * @param parallelism MODE E connections per stripe, 1..64
     * @param blockSizeBytes block size of the striped layout, 1 byte .. 64 MiB
     * @param listener progress (may be {@link TransferListener#NONE}-like no-op)
     * @return bytes transferred (the source file's size, or more if markers said so)
     * @throws IOException if either side fails (for example 500 when a server lacks SPAS/SPOR); the
     *     destination may hold a partial file
     * @throws IllegalArgumentException on a parallelism or block size out of range
     */
    default long sendStriped(String sourcePath, GridFtpSession destination, String destinationPath, int parallelism,
            int blockSizeBytes, TransferListener listener) throws IOException {
        throw new UnsupportedOperationException("striped transfers are not supported by " + getClass().getName());
    }

    /**
     * Lists a directory with MLSD.
     *
     * @param directory absolute directory path
     * @return its entries, without {@code cdir}/{@code pdir} entries
     * @throws java.nio.file.NoSuchFileException if the directory does not exist (550)
     * @throws IOException on other failures
     */
    List<FileInfo> list(String directory) throws IOException;

    /**
     * Describes one path with MLST.
     *
     * @param path absolute path
     * @return its facts; {@link FileInfo#name()} is the path
     * @throws java.nio.file.NoSuchFileException if it does not exist (550)
     * @throws IOException on other failures
     */
    FileInfo stat(String path) throws IOException;

    /**
     * Creates one directory with MKD; the parent must exist.
     *
     * @param path absolute directory path
     * @throws IOException if the server refuses (e.g. it exists: 553/550)
     */
    void makeDirectory(String path) throws IOException;

    /**
     * Deletes a file with DELE.
     *
     * @throws IOException on a negative reply
     */
    void delete(String path) throws IOException;

    /**
     * Computes a checksum on the server with CKSM over the whole file.
     *
     * @param algorithm {@code MD5} or {@code ADLER32} (more in later versions)
     * @param path absolute file path
     * @return lowercase hex digest as the server printed it
     * @throws IOException on a negative reply
     */
    String checksum(String algorithm, String path) throws IOException;

    /**
     * Downloads a remote file into a local file (RETR), creating or truncating it.
     *
     * @param remotePath absolute path on the server
     * @param localFile local destination
     * @param options stream or MODE E with parallelism
     * @param listener progress callbacks
     * @return bytes received
     * @throws IOException on failure; the local file may be partial
     */
    long download(String remotePath, Path localFile, TransferOptions options, TransferListener listener)
            throws IOException;

    /**
     * Uploads a local file (STOR).
     *
     * @return bytes sent
     * @throws IOException on failure
     */
    long upload(Path localFile, String remotePath, TransferOptions options, TransferListener listener)
            throws IOException;

    /**
     * Third-party transfer: this session's server (the source) sends {@code sourcePath} directly to
     * the destination session's server, which stores it as {@code destinationPath}. In MODE E the
     * destination listens (PASV) and the source connects (PORT) with {@code parallelism} streams
     * (gridftp-protocol.md section 3.3); in stream mode the same roles with one connection.
     *
     * @return bytes transferred, from the destination's final performance marker or the source's size
     * @throws IOException if either side fails; the destination may hold a partial file
     */
    long sendTo(String sourcePath, GridFtpSession destination, String destinationPath, TransferOptions options,
            TransferListener listener) throws IOException;

    /** Sends QUIT and closes the control channel; never throws for an already broken channel. */
    @Override
    void close() throws IOException;
}
