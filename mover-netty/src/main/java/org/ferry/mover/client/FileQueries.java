package org.ferry.mover.client;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.ferry.mover.protocol.ClientCommands;
import org.ferry.mover.protocol.FtpReply;

/**
 * Questions and settings about files on a session's server, one command each or pipelined (every
 * command in one write, then the replies in order): SIZE (RFC 3659 section 4), MFMT
 * (draft-somers-ftp-mfxx) and globus-gridftp-server's SITE UTIME.
 */
final class FileQueries {

    private FileQueries() {}

    /**
     * The size of a file with SIZE (RFC 3659 section 4).
     *
     * @throws NoSuchFileException on 550
     * @throws IOException on other failures
     */
    static long size(SessionControl control, String path) throws IOException {
        String command = ClientCommands.size(path);
        FtpReply reply = control.command(command);
        if (reply.code() == 550) {
            throw new NoSuchFileException(path, null, reply.text());
        }
        SessionControl.checkOk(command, reply);
        try {
            return Long.parseLong(reply.firstLineText().trim());
        } catch (NumberFormatException e) {
            throw new IOException("bad SIZE reply: " + reply, e);
        }
    }

    /**
     * Sizes with SIZE (RFC 3659 section 4), pipelined: every command in one write, then the
     * replies in order (read to the last one even after a failure, to stay in step).
     *
     * @return each path's size, -1 where the server answered 550
     * @throws GridFtpReplyException for the first other refusal
     * @throws IOException if the connection fails or a reply is not a number
     */
    static long[] sizes(ControlChannel channel, List<String> paths) throws IOException {
        long[] sizes = new long[paths.size()];
        if (paths.isEmpty()) {
            return sizes;
        }
        for (String path : paths) {
            channel.write(ClientCommands.size(path));
        }
        channel.flush();
        IOException failure = null;
        for (int i = 0; i < sizes.length; i++) {
            String command = ClientCommands.size(paths.get(i));
            FtpReply reply = channel.readFinal(command, r -> {});
            if (failure != null) {
                continue;
            }
            if (reply.code() == 550) {
                sizes[i] = -1;
            } else if (!reply.isPositiveCompletion()) {
                failure = new GridFtpReplyException(command, reply.code(), reply.text());
            } else {
                try {
                    sizes[i] = Long.parseLong(reply.firstLineText().trim());
                } catch (NumberFormatException e) {
                    failure = new IOException("bad SIZE reply: " + reply, e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
        return sizes;
    }

    /**
     * Sets modification times, pipelined as {@link #sizes}: {@code MFMT} (draft-somers-ftp-mfxx)
     * when {@code mfmt} (FEAT lists it), else globus-gridftp-server's {@code SITE UTIME}, both with the time first.
     *
     * @return each path's refusal, null where the time was set
     * @throws IllegalArgumentException if the lists differ in length, or a path or time cannot be sent
     * @throws IOException if the connection fails
     */
    static GridFtpReplyException[] setModifiedTimes(
            ControlChannel channel, List<String> paths, List<Instant> times, boolean mfmt) throws IOException {
        if (paths.size() != times.size()) {
            throw new IllegalArgumentException(paths.size() + " paths but " + times.size() + " times");
        }
        GridFtpReplyException[] refusals = new GridFtpReplyException[paths.size()];
        if (paths.isEmpty()) {
            return refusals;
        }
        List<String> commands = new ArrayList<>(paths.size());
        for (int i = 0; i < paths.size(); i++) {
            commands.add(
                    mfmt
                            ? ClientCommands.mfmt(times.get(i), paths.get(i))
                            : ClientCommands.siteUtime(times.get(i), paths.get(i)));
        }
        for (String command : commands) {
            channel.write(command);
        }
        channel.flush();
        for (int i = 0; i < refusals.length; i++) {
            FtpReply reply = channel.readFinal(commands.get(i), r -> {});
            if (!reply.isPositiveCompletion()) {
                refusals[i] = new GridFtpReplyException(commands.get(i), reply.code(), reply.text());
            }
        }
        return refusals;
    }
}
