package org.ferry.mover.server.command;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.zip.Adler32;
import org.ferry.mover.server.CommandContext;
import org.ferry.mover.server.FtpException;
import org.ferry.mover.storage.FileStat;
import org.ferry.mover.storage.StorageException;

/**
 * CKSM algorithm offset length path (globus syntax, gridftp-protocol.md section 2.9): checksum of
 * {@code length} bytes from {@code offset} ({@code -1} = to the end). {@code 213 <hex>}, lowercase;
 * ADLER32 as exactly 8 hex digits. Algorithms: MD5, ADLER32 (case-insensitive); others 504.
 */
public final class CksmHandler implements CommandHandler {

    private static final int BUFFER_BYTES = 256 * 1024;

    @Override
    public String verb() {
        return "CKSM";
    }

    @Override
    public List<String> features() {
        return List.of("CKSM MD5;ADLER32;");
    }

    @Override
    public void handle(CommandContext ctx, String argument) throws FtpException, IOException {
        String[] parts = argument.strip().split(" ", 4);
        if (parts.length < 4 || parts[3].isEmpty()) {
            throw new FtpException(501, "Syntax error in parameters or arguments.");
        }
        String algorithm = parts[0].toUpperCase(Locale.ROOT);
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
        if (!algorithm.equals("MD5") && !algorithm.equals("ADLER32")) {
            throw new FtpException(504, "Unknown checksum algorithm requested.");
        }
        String path = ctx.resolve(parts[3]);
        FileStat stat = ctx.storage().stat(path);
        if (!stat.isFile()) {
            throw new FtpException(550, path + ": not a plain file.");
        }
        try (FileChannel channel = ctx.storage().openForRead(path)) {
            long size = channel.size();
            if (offset > size) {
                throw new FtpException(501, "Offset past the end of file.");
            }
            long end = length == -1 ? size : Math.min(size, offset + length);
            ctx.reply(213, algorithm.equals("MD5") ? md5(channel, offset, end) : adler32(channel, offset, end));
        } catch (StorageException e) {
            throw e;
        } catch (IOException e) {
            throw StorageException.from(e, path);
        }
    }

    private static String md5(FileChannel channel, long from, long to) throws IOException {
        MessageDigest digest;
        try {
            digest = MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("MD5 is a required JDK algorithm", e);
        }
        read(channel, from, to, digest::update);
        return HexFormat.of().formatHex(digest.digest());
    }

    private static String adler32(FileChannel channel, long from, long to) throws IOException {
        Adler32 adler = new Adler32();
        read(channel, from, to, adler::update);
        return String.format("%08x", adler.getValue());
    }

    private static void read(FileChannel channel, long from, long to, java.util.function.Consumer<ByteBuffer> sink)
            throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(BUFFER_BYTES);
        long position = from;
        while (position < to) {
            buffer.clear();
            buffer.limit((int) Math.min(BUFFER_BYTES, to - position));
            int n = channel.read(buffer, position);
            if (n < 0) {
                break;
            }
            position += n;
            buffer.flip();
            sink.accept(buffer);
        }
    }
}
