package org.ferry.mover.server.tar;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.ferry.mover.protocol.TarModule;
import org.ferry.mover.server.pi.FtpException;
import org.ferry.mover.storage.StorageDirectory;
import org.ferry.mover.storage.StorageInterface;

/**
 * Builds the tar stream of {@code ERET TAR} (see {@link org.ferry.mover.protocol.TarModule}) in
 * memory (a pooled direct buffer): one POSIX tar entry (pax headers for long names and big sizes,
 * Commons Compress) per named regular file of a directory, in the order named, with its size. In memory
 * because a batch is small (the client keeps it to megabytes) and because the whole batch must be
 * readable before the first byte goes out: a file that cannot be read fails the batch with a reply
 * naming it, before 150, so the client can send that batch's files one by one.
 */
public final class TarBatchArchiver {

    private final StorageInterface storage;
    private final long maxBytes;

    /**
     * @param storage where the files are read (confined to the server's root)
     * @param maxBytes largest archive this server builds, in bytes
     */
    public TarBatchArchiver(StorageInterface storage, long maxBytes) {
        this.storage = storage;
        this.maxBytes = maxBytes;
    }

    /**
     * @param directory virtual path of the directory
     * @param names file names in it
     * @param alloc where the archive's buffer comes from (a pooled direct buffer goes to the socket
     *     without another copy)
     * @return the tar archive (header blocks, contents, end-of-archive blocks) as a buffer the caller
     *     releases; entries carry the files' sizes and the time of archiving
     * @throws FtpException 552 when the archive would exceed the limit
     * @throws IOException when a file cannot be read ({@link org.ferry.mover.storage.StorageException}
     *     for storage refusals: a missing file is NOT_FOUND, mapped to 550 naming it)
     */
    public ByteBuf archive(String directory, List<String> names, ByteBufAllocator alloc)
            throws FtpException, IOException {
        // The module carries contents, not times. Whole seconds: a fraction would cost every entry
        // a pax header (1 KiB more on the wire, parsed again on the other side).
        FileTime now = FileTime.from(Instant.now().truncatedTo(ChronoUnit.SECONDS));
        try (StorageDirectory files = storage.directory(directory)) {
            // sizes first: a missing file fails the batch before anything is read, and the buffer is
            // allocated once at about its final size
            long total = 1024;
            for (String name : names) {
                total += TarModule.entryBytes(files.size(name));
                if (total > maxBytes) {
                    throw tooBig(names.size(), directory);
                }
            }
            ByteBuf buffer = alloc.directBuffer((int) Math.min(maxBytes, total + 16 * 1024), (int) maxBytes);
            try {
                write(files, directory, names, now, buffer);
                return buffer;
            } catch (IOException | FtpException | RuntimeException e) {
                buffer.release();
                throw e;
            }
        }
    }

    private void write(StorageDirectory files, String directory, List<String> names, FileTime now, ByteBuf buffer)
            throws FtpException, IOException {
        try (TarArchiveOutputStream tar = new TarArchiveOutputStream(new ByteBufOutputStream(buffer))) {
            tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
            tar.setBigNumberMode(TarArchiveOutputStream.BIGNUMBER_POSIX);
            tar.setAddPaxHeadersForNonAsciiNames(true);
            byte[] chunk = new byte[64 * 1024];
            for (String name : names) {
                try (FileChannel file = files.openForRead(name)) {
                    long size = file.size();
                    if (buffer.writerIndex() + size + 2048 > maxBytes) {
                        throw tooBig(names.size(), directory);
                    }
                    TarArchiveEntry entry = new TarArchiveEntry(name, true);
                    entry.setSize(size);
                    entry.setLastModifiedTime(now);
                    tar.putArchiveEntry(entry);
                    copy(file, size, tar, name, chunk);
                    tar.closeArchiveEntry();
                }
            }
            tar.finish();
        }
    }

    private FtpException tooBig(int files, String directory) {
        return new FtpException(
                552,
                "Tar batch of " + files + " files in " + directory + " exceeds this server's limit of " + maxBytes
                        + " bytes.");
    }

    /** Copies exactly {@code size} bytes: the header already promised that many. */
    private static void copy(FileChannel file, long size, OutputStream out, String path, byte[] chunk)
            throws IOException {
        long done = 0;
        while (done < size) {
            int n = file.read(ByteBuffer.wrap(chunk, 0, (int) Math.min(chunk.length, size - done)), done);
            if (n < 0) {
                throw new IOException(path + " shrank to " + done + " bytes while being archived");
            }
            out.write(chunk, 0, n);
            done += n;
        }
    }
}
