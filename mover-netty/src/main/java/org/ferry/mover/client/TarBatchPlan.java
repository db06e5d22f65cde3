package org.ferry.mover.client;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.ferry.mover.protocol.ClientCommands;
import org.ferry.mover.protocol.TarModule;

/**
 * Cuts a third-party batch into pipelined steps: small files that keep their name and move between
 * the same pair of directories travel together as one tar stream ({@code ESTO TAR} on the
 * destination, {@code ERET TAR} on the source, {@link TarModule}); every other file is one
 * {@code STOR}/{@code RETR} pair. A tar step replaces dozens of command round trips, data
 * connection turns and replies with one (the xio-popen paper's "on-the-fly tar" for lots of small
 * files, section 4.2).
 */
final class TarBatchPlan {

    /** Files up to this size may travel in a tar stream; bigger ones gain nothing from it. */
    static final long MAX_FILE_BYTES = 1 << 20;
    /** A tar stream holds about this much at most (both servers hold one batch in memory). */
    static final long MAX_BATCH_BYTES = 16 << 20;
    /**
     * Longest ERET TAR command: the server reads lines up to 4,096 bytes, and a GSI-protected
     * command grows by a third in base64 plus a TLS record's overhead.
     */
    static final int MAX_COMMAND_CHARS = 2_800;

    /**
     * One pipelined step of a third-party batch.
     *
     * @param destinationCommand sent to the destination (STOR or ESTO TAR)
     * @param sourceCommand sent to the source (RETR or ERET TAR)
     * @param files indexes of the files the step moves, into the batch's file list
     */
    record Step(String destinationCommand, String sourceCommand, List<Integer> files) {

        /** @return true for a tar stream step */
        boolean isTar() {
            return sourceCommand.startsWith("ERET ");
        }
    }

    private TarBatchPlan() {}

    /**
     * @param files the batch
     * @param sizes each file's size in bytes
     * @param tar whether both servers offer the TAR module
     * @return the steps, covering every file exactly once; without {@code tar}, one per file in order
     */
    static List<Step> steps(List<FilePair> files, long[] sizes, boolean tar) {
        List<Step> steps = new ArrayList<>();
        Map<List<String>, Batch> open = new LinkedHashMap<>();
        for (int i = 0; i < files.size(); i++) {
            FilePair file = files.get(i);
            String name = name(file.source());
            if (!tar || sizes[i] > MAX_FILE_BYTES || !name.equals(name(file.destination())) || !plain(name)) {
                steps.add(single(file, i));
                continue;
            }
            List<String> key = List.of(directory(file.source()), directory(file.destination()));
            Batch batch = open.computeIfAbsent(key, k -> new Batch(k.get(0), k.get(1)));
            if (!batch.fits(name, sizes[i])) {
                batch.emit(files, steps);
                batch = new Batch(key.get(0), key.get(1));
                open.put(key, batch);
            }
            batch.add(i, name, sizes[i]);
        }
        for (Batch batch : open.values()) {
            batch.emit(files, steps);
        }
        return steps;
    }

    private static Step single(FilePair file, int index) {
        return new Step(ClientCommands.stor(file.destination()), ClientCommands.retr(file.source()), List.of(index));
    }

    private static boolean plain(String name) {
        try {
            TarModule.checkName(name);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** @return the part after the last slash */
    static String name(String path) {
        return path.substring(path.lastIndexOf('/') + 1);
    }

    /** @return the part before the last slash ({@code /} for a file in the root, {@code .} for a bare name) */
    static String directory(String path) {
        int slash = path.lastIndexOf('/');
        return slash < 0 ? "." : slash == 0 ? "/" : path.substring(0, slash);
    }

    /** The files gathered for one tar stream between one pair of directories. */
    private static final class Batch {
        private final String sourceDirectory;
        private final String destinationDirectory;
        private final List<Integer> files = new ArrayList<>();
        private final List<String> names = new ArrayList<>();
        private long bytes;
        private int commandChars;

        Batch(String sourceDirectory, String destinationDirectory) {
            this.sourceDirectory = sourceDirectory;
            this.destinationDirectory = destinationDirectory;
            this.commandChars = "ERET TAR=\"\" ".length() + sourceDirectory.length();
        }

        boolean fits(String name, long size) {
            return files.isEmpty()
                    || (bytes + TarModule.entryBytes(size) <= MAX_BATCH_BYTES
                            && commandChars + 1 + TarModule.encode(name).length() <= MAX_COMMAND_CHARS);
        }

        void add(int index, String name, long size) {
            files.add(index);
            names.add(name);
            bytes += TarModule.entryBytes(size);
            commandChars += 1 + TarModule.encode(name).length();
        }

        void emit(List<FilePair> all, List<Step> steps) {
            if (files.size() == 1) {
                steps.add(single(all.get(files.get(0)), files.get(0))); // a stream of one saves nothing
            } else if (!files.isEmpty()) {
                steps.add(new Step(
                        "ESTO " + TarModule.storeArgument(destinationDirectory),
                        "ERET " + TarModule.retrieveArgument(names, sourceDirectory),
                        List.copyOf(files)));
            }
        }
    }
}
