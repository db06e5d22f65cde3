package org.ferry.mover.client;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.ferry.mover.data.DataSink;
import org.ferry.mover.data.DataSource;
import org.ferry.mover.data.security.ProtectionLevel;
import org.ferry.mover.protocol.ByteRange;
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
     * Protects every later data channel of this session at least at {@code level}, whatever a
     * transfer's {@link TransferOptions} ask: listings, two-party and third-party transfers
     * ({@code encrypt_data} asks for {@link ProtectionLevel#PRIVATE}, RFC 2228 section 3 PROT P on
     * GFD.020 DCAU). Striped transfers are then refused.
     *
     * @param level C, S or P
     * @throws IOException if the session cannot: a clear-text ({@code ftp://}) session, or a server
     *     without DCAU
     */
    void requireDataProtection(ProtectionLevel level) throws IOException;

    /**
     * Striped third-party transfer (GFD.020 "SPAS", "SPOR", "Options to RETR"; RFC 959 section 5.2 (server to server), GFD.020 "Extended Block Mode" {@code -stripe}): the destination answers {@code SPAS} with one address per
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
    long sendStriped(
            String sourcePath,
            GridFtpSession destination,
            String destinationPath,
            int parallelism,
            int blockSizeBytes,
            TransferListener listener)
            throws IOException;

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
     * The sizes of many files in one exchange: {@code SIZE} (RFC 3659 section 4) for each path,
     * pipelined (all commands in one write, then the replies in order), so that checking a batch of
     * small files costs one round trip, not one per file.
     *
     * @param paths absolute paths
     * @return each path's size in bytes, in order; -1 for a path the server has no file at (550)
     * @throws GridFtpReplyException for another refusal
     * @throws IOException if the connection fails
     */
    long[] sizes(List<String> paths) throws IOException;

    /**
     * Sets the modification times of many files in one exchange (what {@code preserve_timestamp}
     * asks of a destination): {@code MFMT YYYYMMDDHHMMSS path} (draft-somers-ftp-mfxx section 3)
     * for each, or {@code SITE UTIME YYYYMMDDHHMMSS path} (globus-gridftp-server's form of the
     * same) when the server does not list MFMT in FEAT, pipelined as {@link #sizes} is: one round
     * trip for a batch. A server that refuses one path still sets the others.
     *
     * @param paths absolute file paths
     * @param times each path's time, UTC; whole seconds are set (a fraction is dropped)
     * @return for each path, in order: null where the time was set, else the server's refusal
     *     (e.g. 550 for a missing file, 500 for a server that knows neither command)
     * @throws IllegalArgumentException if the lists differ in length, a path holds CR or LF, or a
     *     time lies outside years 1..9999
     * @throws IOException if the connection fails
     */
    GridFtpReplyException[] setModifiedTimes(List<String> paths, List<Instant> times) throws IOException;

    /**
     * Whether this server speaks extended block mode (MODE E, GFD.020), needed for parallel data
     * connections, restart markers and pipelined batches. A GridFTP server lists {@code PARALLEL}
     * in FEAT (RFC 2389); a server that lists neither it nor {@code MODE E} is asked {@code MODE E}
     * once and taken at its word (an FTP server that only speaks stream mode refuses it: 501 or 504).
     *
     * @return true if MODE E transfers work with this server
     * @throws IOException if the connection fails
     */
    boolean supportsExtendedBlockMode() throws IOException;

    /**
     * Whether the server asks to dial its data connections itself (FEAT {@link
     * org.ferry.mover.protocol.DialOut#FEATURE}: a Ferry Connect agent behind a firewall).
     *
     * @return true for such a server; the default false
     * @throws IOException if the connection fails
     */
    default boolean dialsOut() throws IOException {
        return false;
    }

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
     * Removes an empty directory (RMD, RFC 959 section 4.1.3).
     *
     * @throws GridFtpReplyException if the server refuses (missing, not empty, not a directory: 550)
     * @throws IOException if the connection fails
     */
    void removeDirectory(String path) throws IOException;

    /**
     * Renames a file or directory (RNFR then RNTO, RFC 959 section 4.1.3).
     *
     * @param from the existing path
     * @param to the new path
     * @throws GridFtpReplyException if the server refuses either command (e.g. 550: from is missing)
     * @throws IOException if the connection fails
     */
    void rename(String from, String to) throws IOException;

    /**
     * Asks this server to send 111 restart markers every {@code seconds} while it receives in
     * MODE E, for the rest of the session ({@code TREV RESTART n}, globus-gridftp-server's transfer
     * event command; GFD.020 "Restarting"; the default period is 5 s). Frequent markers
     * bound what a transfer killed midway must send again on resume ({@link #resumeSendTo}).
     *
     * @param seconds 1..86400
     * @throws GridFtpReplyException if the server refuses (a server without TREV: 500)
     * @throws IOException if the connection fails
     * @throws IllegalArgumentException if {@code seconds} is out of range
     */
    void restartMarkerInterval(int seconds) throws IOException;

    /**
     * Asks this server to send 112 performance markers every {@code seconds} while it receives in
     * MODE E, for the rest of the session ({@code TREV PERF n}; GFD.020 "Performance Monitoring";
     * globus-gridftp-server's and ferry-gridftp's default period is 5 s). The markers are where a
     * third-party transfer's progress comes from.
     *
     * @param seconds 1..86400
     * @throws GridFtpReplyException if the server refuses (a server without TREV: 500)
     * @throws IOException if the connection fails
     * @throws IllegalArgumentException if {@code seconds} is out of range
     */
    void perfMarkerInterval(int seconds) throws IOException;

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
     * (RFC 959 section 5.2 (server to server), GFD.020 "Extended Block Mode"); in stream mode the same roles with one connection.
     *
     * @return bytes transferred, from the destination's final performance marker or the source's size
     * @throws IOException if either side fails; the destination may hold a partial file
     */
    long sendTo(
            String sourcePath,
            GridFtpSession destination,
            String destinationPath,
            TransferOptions options,
            TransferListener listener)
            throws IOException;

    /**
     * Resumes a third-party transfer that failed part way (GFD.020 "Restarting"): like {@link #sendTo}, but only the bytes not in {@code done} move. In MODE E both
     * servers get {@code REST a-b,c-d} with the done ranges (the source skips them, the destination
     * keeps its partial file); in stream mode {@code REST n} with the gap-free prefix of {@code done}.
     * Collect {@code done} with {@link RestartMarkers} during the failed attempt.
     *
     * @param sourcePath absolute path on this session's server
     * @param destination the receiving server's session
     * @param destinationPath absolute path there; the partial file of the failed attempt
     * @param options mode and parallelism
     * @param done ranges the destination already holds (end exclusive)
     * @param listener progress and further restart markers
     * @return the file's size in bytes
     * @throws IOException if either side fails again (collect markers and resume again)
     */
    long resumeSendTo(
            String sourcePath,
            GridFtpSession destination,
            String destinationPath,
            TransferOptions options,
            List<ByteRange> done,
            TransferListener listener)
            throws IOException;

    /**
     * Partial third-party transfer (GFD.020 "ERET"/"ESTO", globus-url-copy {@code -off -len}):
     * bytes {@code [offset, offset + length)} of the source file go to the same window of the
     * destination file ({@code ERET P offset length} on the source, {@code ESTO A offset} on the
     * destination, which is neither created afresh nor truncated). Needs FEAT {@code ERET}/{@code ESTO}.
     *
     * @param sourcePath absolute path on this session's server
     * @param offset first byte of the window (0..)
     * @param length bytes in the window (0..); cut at the source's end
     * @param destination the receiving server's session
     * @param destinationPath absolute path there
     * @param options mode and parallelism
     * @param listener progress
     * @return bytes in the window as transferred
     * @throws IOException if either side fails (e.g. 500/504 from a server without ERET/ESTO)
     * @throws IllegalArgumentException if offset or length is negative
     */
    long sendPartTo(
            String sourcePath,
            long offset,
            long length,
            GridFtpSession destination,
            String destinationPath,
            TransferOptions options,
            TransferListener listener)
            throws IOException;

    /**
     * Partial download (ERET P): bytes {@code [offset, offset + length)} of the remote file into the
     * same window of the local file, which is created if missing and not truncated.
     *
     * @param remotePath absolute path on the server
     * @param offset first byte (0..)
     * @param length bytes (0..); cut at the remote end
     * @param localFile local destination
     * @param options mode and parallelism
     * @param listener progress
     * @return bytes received
     * @throws IOException on failure
     */
    long downloadPart(
            String remotePath,
            long offset,
            long length,
            Path localFile,
            TransferOptions options,
            TransferListener listener)
            throws IOException;

    /**
     * Partial upload (ESTO A): bytes {@code [offset, offset + length)} of the local file into the
     * same window of the remote file, which is not truncated.
     *
     * @param localFile local source
     * @param offset first byte (0..)
     * @param length bytes (0..); cut at the local end
     * @param remotePath absolute path on the server
     * @param options mode and parallelism
     * @param listener progress
     * @return bytes sent
     * @throws IOException on failure
     */
    long uploadPart(
            Path localFile,
            long offset,
            long length,
            String remotePath,
            TransferOptions options,
            TransferListener listener)
            throws IOException;

    /**
     * Partial download into memory or any other sink (ERET P, GFD.020 "ERET"): bytes
     * {@code [offset, offset + length)} of the remote file, cut at its end, go to {@code sink} at
     * offsets counted from {@code offset} (0 for the window's first byte). In MODE E the blocks of
     * parallel connections arrive in any order; the connections stay cached for the next partial
     * download of this session.
     *
     * <p>The default implementation throws {@link UnsupportedOperationException}.
     *
     * @param remotePath absolute path on the server
     * @param offset first byte (0..)
     * @param length bytes (0..)
     * @param sink where the bytes go; must accept writes from several threads at distinct offsets
     * @param options mode and parallelism
     * @param listener progress
     * @return bytes received
     * @throws GridFtpReplyException if the server refuses (e.g. 550 for a missing file or a directory)
     * @throws IOException if a data channel fails, the sink fails, or on the reply timeout
     * @throws IllegalArgumentException if offset or length is negative
     */
    default long downloadPart(
            String remotePath,
            long offset,
            long length,
            DataSink sink,
            TransferOptions options,
            TransferListener listener)
            throws IOException {
        throw new UnsupportedOperationException(
                "partial transfers are not supported by " + getClass().getName());
    }

    /**
     * Upload from memory or any other source: with {@code offset < 0} a whole new file (STOR, RFC
     * 959 section 4.1.3: created, or truncated first), else {@code source}'s bytes from
     * {@code offset} on into the existing file, which is neither created afresh nor truncated (ESTO
     * A, GFD.020 "ESTO").
     *
     * <p>The default implementation throws {@link UnsupportedOperationException}.
     *
     * @param source the bytes to send
     * @param remotePath absolute path on the server
     * @param offset where the source's first byte goes, or -1 for STOR
     * @param options mode and parallelism
     * @param listener progress
     * @return bytes sent
     * @throws GridFtpReplyException if the server refuses (e.g. 553 or 550 for a path it cannot write)
     * @throws IOException if a data channel fails or on the reply timeout
     */
    default long upload(
            DataSource source, String remotePath, long offset, TransferOptions options, TransferListener listener)
            throws IOException {
        throw new UnsupportedOperationException(
                "uploads from a data source are not supported by " + getClass().getName());
    }

    /**
     * Chooses what the server's next STOR, ESTO and RETR of this session read and write ({@code SITE
     * SETDISKSTACK stack}, globus-gridftp-server's file system driver stack; globus-url-copy sends it
     * for {@code -fsstack} and {@code -mc}), e.g. {@code file,gridftp_multicast:urls=...} on a
     * ferry-gridftp started with {@code --multicast}.
     *
     * <p>The default implementation throws {@link UnsupportedOperationException}.
     *
     * @param stack the stack, drivers top first, as the server parses it
     * @throws GridFtpReplyException if the server refuses (500 naming the driver)
     * @throws IOException if the connection fails
     */
    default void setDiskStack(String stack) throws IOException {
        throw new UnsupportedOperationException(
                "SITE SETDISKSTACK is not supported by " + getClass().getName());
    }

    /**
     * Sets a file's or directory's permission bits ({@code SITE CHMOD <octal> <path>}, the form
     * globus-gridftp-server and ferry-gridftp take; RFC 959 section 4.1.3 SITE).
     *
     * <p>The default implementation throws {@link UnsupportedOperationException}.
     *
     * @param path absolute path
     * @param mode permission bits, 0..07777
     * @throws GridFtpReplyException if the server refuses (550 for a missing path, 500 without SITE CHMOD)
     * @throws IOException if the connection fails
     * @throws IllegalArgumentException if {@code mode} is out of range
     */
    default void changeMode(String path, int mode) throws IOException {
        throw new UnsupportedOperationException(
                "SITE CHMOD is not supported by " + getClass().getName());
    }

    /**
     * @param feature a FEAT keyword (RFC 2389), e.g. {@code ESTO}
     * @return whether the server lists it; FEAT is asked once per session
     * @throws IOException if the connection fails
     */
    default boolean offers(String feature) throws IOException {
        return false;
    }

    /**
     * @param algorithm a CKSM algorithm, e.g. {@code SHA256-TREE}
     * @return whether the server's FEAT lists it in its CKSM line (globus-gridftp-server's and
     *     Ferry's form: {@code CKSM MD5;ADLER32;...;}); FEAT is asked once per session
     * @throws IOException if the connection fails
     */
    default boolean offersChecksum(String algorithm) throws IOException {
        return false;
    }

    /**
     * @return false once the control connection is known to be closed or broken (the server closed
     *     it, e.g. after an idle timeout or a restart); true does not promise that the next command
     *     gets through
     */
    default boolean isOpen() {
        return true;
    }

    /**
     * Third-party transfer of many files from this session's server to the destination's, with
     * pipelining (GridFTP pipelining (Bresnahan et al., TeraGrid 2007)): the next files' STOR/RETR commands are sent
     * before the current file's 226 arrives, up to {@code pipelineDepth} files in flight. In MODE E
     * the data connections are set up once and reused for every file (section 2.2); in stream mode
     * every file needs its own PASV/PORT, so files go one by one. Files completed before a failure
     * were reported to {@link TransferListener#onFileCompleted}; files the destination opened and
     * did not finish, to {@link TransferListener#onFileUnfinished}.
     *
     * <p>In stream mode the files go one by one, like {@link #sendTo} each.
     *
     * @param files the files, in order; source paths on this server, destination paths on the other
     * @param destination the receiving server's session
     * @param options mode and parallelism
     * @param pipelineDepth files in flight at once (1..1000; 1 = no pipelining)
     * @param listener progress, restart markers and per-file completion
     * @return total bytes transferred
     * @throws IOException at the first failed file (the destination may hold a partial file); the
     *     sessions remain usable
     * @throws IllegalArgumentException if {@code pipelineDepth} is outside 1..1000
     */
    long sendAll(
            List<FilePair> files,
            GridFtpSession destination,
            TransferOptions options,
            int pipelineDepth,
            TransferListener listener)
            throws IOException;

    /**
     * Uploads many local files (STOR), pipelined in MODE E like {@link #sendAll}.
     *
     * @param files local source paths and remote destination paths
     * @param options mode and parallelism
     * @param pipelineDepth files in flight at once (1..1000)
     * @param listener progress and per-file completion
     * @return total bytes sent
     * @throws IOException at the first failed file
     */
    long uploadAll(List<FilePair> files, TransferOptions options, int pipelineDepth, TransferListener listener)
            throws IOException;

    /**
     * Downloads many remote files (RETR) into local files (created or truncated), pipelined in
     * MODE E like {@link #sendAll}.
     *
     * @param files remote source paths and local destination paths
     * @param options mode and parallelism
     * @param pipelineDepth files in flight at once (1..1000)
     * @param listener progress and per-file completion
     * @return total bytes received
     * @throws IOException at the first failed file
     */
    long downloadAll(List<FilePair> files, TransferOptions options, int pipelineDepth, TransferListener listener)
            throws IOException;

    /** Sends QUIT and closes the control channel; never throws for an already broken channel. */
    @Override
    void close() throws IOException;
}
