package org.ferry.mover.server.command;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Function;
import org.ferry.mover.data.DataSource;
import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.FtpException;
import org.ferry.mover.storage.FileStat;
import org.ferry.mover.storage.StorageException;

/** Shared steps of MLSD, LIST and NLST: collect entries, render CRLF lines, send them. */
final class Listings {

    private Listings() {}

    /**
     * Sends one line per entry over the data channel.
     *
     * @param ctx session context
     * @param entries what to list
     * @param render entry to line (without CRLF)
     */
    static void send(CommandContext ctx, List<FileStat> entries, Function<FileStat, String> render)
            throws FtpException {
        ctx.transfers().requireEndpoint(true);
        StringBuilder sb = new StringBuilder();
        for (FileStat entry : entries) {
            sb.append(render.apply(entry)).append("\r\n");
        }
        ctx.transfers().send(DataSource.ofBytes(sb.toString().getBytes(StandardCharsets.UTF_8)));
    }

    /**
     * Entries named by a LIST/NLST argument: a directory's entries, a single file, or the entries
     * of the parent matching a glob in the last component ({@code * ? [ ]}, as globus does).
     *
     * @param ctx session context
     * @param argument the path argument (options already removed); empty for the CWD
     * @return the entries
     */
    static List<FileStat> select(CommandContext ctx, String argument) throws StorageException {
        String path = ctx.resolve(argument);
        String name = org.ferry.mover.storage.VirtualPaths.name(path);
        if (name.matches(".*[*?\\[].*")) {
            java.nio.file.PathMatcher matcher =
                    java.nio.file.FileSystems.getDefault().getPathMatcher("glob:" + name);
            return ctx.storage().list(org.ferry.mover.storage.VirtualPaths.parent(path)).stream()
                    .filter(e -> matcher.matches(java.nio.file.Path.of(e.name())))
                    .toList();
        }
        FileStat stat = ctx.storage().stat(path);
        return stat.isDirectory() ? ctx.storage().list(path) : List.of(stat);
    }

    /** Drops leading {@code -la}-style option tokens from a LIST/NLST argument. */
    static String stripOptions(String argument) {
        String rest = argument.strip();
        while (rest.startsWith("-")) {
            int space = rest.indexOf(' ');
            rest = space < 0 ? "" : rest.substring(space + 1).strip();
        }
        return rest;
    }
}
