package org.ferry.mover.server.tar;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.archivers.tar.TarConstants;
import org.ferry.mover.protocol.TarModule;
import org.ferry.mover.server.pi.FtpException;
import org.ferry.mover.storage.StorageDirectory;
import org.ferry.mover.storage.StorageInterface;

/**
 * Unpacks the tar stream of {@code ESTO TAR} (see {@link org.ferry.mover.protocol.TarModule}) into
 * a directory: each entry must be a regular file with a plain name (no directory part, no
 * {@code ..}), so nothing lands outside the directory the client named, which itself is confined to
 * the root by the storage interface. Files are written in place like STOR writes them: a batch that
 * fails part way leaves the files before the failure complete, the failing one partial.
 */
public final class TarBatchExtractor {

    private final StorageInterface storage;

    /** @param storage where the files are written (confined to the server's root) */
    public TarBatchExtractor(StorageInterface storage) {
        this.storage = storage;
    }

    /**
     * @param directory virtual path of the target directory
     * @param archive the received tar stream
     * @return number of files written
     * @throws FtpException 553 for an entry that is not a plain regular file, 451 for a malformed
     *     or truncated archive
     * @throws IOException when a file cannot be written ({@link org.ferry.mover.storage.StorageException}
     *     for storage refusals, e.g. 552 when the disk is full)
     */
    public int extract(String directory, InputStream archive) throws FtpException, IOException {
        int files = 0;
        byte[] chunk = new byte[64 * 1024];
        try (StorageDirectory target = storage.directory(directory);
                TarArchiveInputStream tar = new TarArchiveInputStream(archive)) {
            TarArchiveEntry entry;
            while ((entry = nextEntry(tar)) != null) {
                byte type = entry.getLinkFlag(); // isFile() also says yes to links and devices
                if (type != TarConstants.LF_NORMAL && type != TarConstants.LF_OLDNORM) {
                    throw new FtpException(553, "Tar entry " + entry.getName() + " is not a regular file.");
                }
                String name;
                try {
                    name = TarModule.checkName(entry.getName());
                } catch (IllegalArgumentException e) {
                    throw new FtpException(553, "Tar entry refused: " + e.getMessage() + ".");
                }
                try (FileChannel file = target.create(name)) {
                    long written = 0;
                    int n;
                    while ((n = read(tar, chunk)) > 0) {
                        ByteBuffer data = ByteBuffer.wrap(chunk, 0, n);
                        while (data.hasRemaining()) {
                            written += file.write(data, written);
                        }
                    }
                }
                files++;
            }
        }
        return files;
    }

    private static TarArchiveEntry nextEntry(TarArchiveInputStream tar) throws FtpException {
        try {
            return tar.getNextEntry();
        } catch (IOException | RuntimeException e) {
            throw new FtpException(451, "Malformed tar stream: " + e.getMessage());
        }
    }

    private static int read(TarArchiveInputStream tar, byte[] chunk) throws FtpException {
        try {
            return tar.read(chunk);
        } catch (IOException | RuntimeException e) {
            throw new FtpException(451, "Malformed tar stream: " + e.getMessage());
        }
    }
}
