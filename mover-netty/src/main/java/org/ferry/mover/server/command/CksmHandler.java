package org.ferry.mover.server.command;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.CommandHandler;
import org.ferry.mover.server.pi.FtpException;
import org.ferry.mover.storage.FileIdentity;
import org.ferry.mover.storage.FileStat;
import org.ferry.mover.storage.StorageException;

/**
 * CKSM algorithm offset length path (globus syntax, GFD.047 "CKSM"): checksum of
 * {@code length} bytes from {@code offset} ({@code -1} = to the end). {@code 213 <hex>}, lowercase;
 * ADLER32 and CRC32C as exactly 8 hex digits. Algorithms: MD5, ADLER32, SHA1, SHA256, SHA512,
 * CRC32C (case-insensitive); others 504. FEAT {@code CKSM
 * MD5;ADLER32;SHA1;SHA256;SHA512;CRC32C;SHA256-TREE;}
 * (globus adds {@code :10}-style suffixes that globus-url-copy does not parse; Ferry leaves them
 * out). {@code CKSM SHA256-TREE 0 -1 dir} digests a whole directory tree ({@link TreeDigest}).
 *
 * <p>A whole file's checksum ({@code 0 -1}) comes from the server's {@link ChecksumCache} when it
 * holds one for the file's identity as it is now (computed while a STOR received it, or by an
 * earlier CKSM); otherwise the file is read, and the result kept if the file did not change while
 * it was read. With no in-flight checksums configured, every CKSM reads the file.
 */
public final class CksmHandler implements CommandHandler {

    private final ChecksumCache checksums;

    /** @param checksums the server's kept whole-file checksums */
    CksmHandler(ChecksumCache checksums) {
        this.checksums = checksums;
    }

    @Override
    public String verb() {
        return "CKSM";
    }

    @Override
    public List<String> features() {
        return List.of("CKSM " + String.join(";", Checksums.ALGORITHMS) + ";" + TreeDigest.ALGORITHM + ";");
    }

    @Override
    public void handle(CommandContext ctx, String argument) throws FtpException, IOException {
        String[] parts = argument.strip().split(" ", 4);
        if (parts.length < 4 || parts[3].isEmpty()) {
            throw new FtpException(501, "Syntax error in parameters or arguments.");
        }
        long offset;
        long length;
        try {
            offset = Long.parseLong(parts[1]);
            length = Long.parseLong(parts[2]);
        } catch (NumberFormatException e) {
            throw new FtpException(501, "Syntax error in parameters or arguments.");
        }
        if (offset < 0 || length < -1) {
            throw new FtpException(501, "Invalid offset or length.");
        }
        if (parts[0].equalsIgnoreCase(TreeDigest.ALGORITHM)) {
            if (offset != 0 || length != -1) {
                throw new FtpException(501, "A tree digest covers whole files: offset 0, length -1.");
            }
            String directory = ctx.resolve(parts[3]);
            if (!ctx.storage().stat(directory).isDirectory()) {
                throw new FtpException(550, directory + ": not a directory.");
            }
            ctx.reply(213, TreeDigest.compute(ctx.storage(), directory));
            return;
        }
        String algorithm = Checksums.canonical(parts[0]);
        if (algorithm == null) {
            throw new FtpException(504, "Unknown checksum algorithm requested.");
        }
        String path = ctx.resolve(parts[3]);
        FileStat stat = ctx.storage().stat(path);
        if (!stat.isFile()) {
            throw new FtpException(550, path + ": not a plain file.");
        }
        boolean cached =
                offset == 0 && length == -1 && !ctx.config().inflightChecksums().isEmpty();
        Optional<FileIdentity> before = cached ? ctx.storage().identity(path) : Optional.empty();
        if (before.isPresent()) {
            String kept = checksums.get(before.get(), algorithm);
            if (kept != null) {
                ctx.reply(213, kept);
                return;
            }
        }
        String computed;
        try (FileChannel channel = ctx.storage().openForRead(path)) {
            long size = channel.size();
            if (offset > size) {
                throw new FtpException(501, "Offset past the end of file.");
            }
            long end = length == -1 ? size : Math.min(size, offset + length);
            computed = Checksums.compute(algorithm, channel, offset, end);
        } catch (StorageException e) {
            throw e;
        } catch (IOException e) {
            throw StorageException.from(e, path);
        }
        if (before.isPresent() && before.equals(ctx.storage().identity(path))) {
            checksums.put(before.get(), Map.of(algorithm, computed)); // unchanged while read: the next CKSM is free
        }
        ctx.reply(213, computed);
    }
}
