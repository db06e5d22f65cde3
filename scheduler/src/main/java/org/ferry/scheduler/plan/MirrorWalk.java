package org.ferry.scheduler.plan;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.ferry.api.domain.FilterRules;
import org.ferry.api.domain.TransferItem;
import org.ferry.mover.client.GridFtpReplyException;
import org.ferry.mover.client.GridFtpSession;
import org.ferry.mover.protocol.FileInfo;

/**
 * {@code delete_destination_extra} (service-semantics b.2): for each recursive item, walks the
 * source and destination trees side by side (MLSD, one directory pair at a time) and deletes what
 * the destination has and the source does not, depth first (DELE for files and links, RMD for a
 * directory once it is empty). Only paths under a recursive item's destination path are ever
 * touched; file items are left alone. A destination name the filter rules exclude is kept (as
 * rsync keeps excluded files), and so is everything below an excluded directory.
 *
 * <p>Run only after every file of the task arrived: the source listing then is what was copied.
 * A walk cut short is safe to repeat (what was deleted is gone; the rest is found again). A dry
 * run reports the same paths and deletes nothing. One walk per run; not thread-safe.
 */
public final class MirrorWalk {

    /** Told about each path the walk deletes (or, in a dry run, would delete). */
    @FunctionalInterface
    public interface Deletions {
        /**
         * @param path the destination path
         * @param directory whether it is a directory (reported after what was inside it)
         * @throws IOException to stop the walk
         */
        void deleted(String path, boolean directory) throws IOException;
    }

    /** The walk was told to stop (the task ended meanwhile). */
    public static final class StoppedException extends IOException {
        private static final long serialVersionUID = 1L;

        /** A stop. */
        public StoppedException() {
            super("stopped: the task is no longer active");
        }
    }

    private final GridFtpSession source;
    private final GridFtpSession destination;
    private final FilterRules filters;
    private final boolean dryRun;
    private final BooleanSupplier stopped;
    private final Deletions deletions;
    private long deleted;

    /**
     * @param source logged-in source session
     * @param destination logged-in destination session
     * @param filters the task's filter rules (excluded names are kept)
     * @param dryRun report, delete nothing
     * @param stopped true once the walk must stop (checked before each deletion)
     * @param deletions told of each deleted path
     */
    public MirrorWalk(
            GridFtpSession source,
            GridFtpSession destination,
            FilterRules filters,
            boolean dryRun,
            BooleanSupplier stopped,
            Deletions deletions) {
        this.source = source;
        this.destination = destination;
        this.filters = filters;
        this.dryRun = dryRun;
        this.stopped = stopped;
        this.deletions = deletions;
    }

    /**
     * @param items the task's items; only recursive ones are mirrored
     * @return how many paths were deleted (files, links and directories)
     * @throws StoppedException if stopped
     * @throws IOException if either server fails (the source is listed as it is now: a source
     *     directory that vanished since the copy is a failure, never a reason to delete its copy)
     */
    public long mirror(List<TransferItem> items) throws IOException {
        for (TransferItem item : items) {
            if (item.isRecursive()) {
                walk(item.getSourcePath(), item.getDestinationPath());
            }
        }
        return deleted;
    }

    private void walk(String sourceDirectory, String destinationDirectory) throws IOException {
        List<FileInfo> there = listOrNull(destination, destinationDirectory);
        if (there == null) {
            return; // nothing at the destination (a dry run before the first copy)
        }
        Map<String, FileInfo> here = new HashMap<>();
        for (FileInfo entry : source.list(sourceDirectory)) {
            here.put(entry.name(), entry);
        }
        there.sort(Comparator.comparing(FileInfo::name));
        for (FileInfo entry : there) {
            String name = entry.name();
            if (name.equals(".") || name.equals("..") || name.contains("/")) {
                continue;
            }
            if (!filters.includes(name, entry.isDirectory())) {
                continue; // outside the filter: not the mirror's to delete
            }
            String path = RemotePaths.child(destinationDirectory, name);
            FileInfo original = here.get(name);
            if (original == null) {
                if (entry.isDirectory()) {
                    removeTree(path);
                } else {
                    remove(path, false);
                }
            } else if (original.isDirectory() && entry.isDirectory()) {
                walk(RemotePaths.child(sourceDirectory, name), path);
            }
        }
    }

    private void removeTree(String directory) throws IOException {
        List<FileInfo> entries = new ArrayList<>(destination.list(directory));
        entries.sort(Comparator.comparing(FileInfo::name));
        for (FileInfo entry : entries) {
            String name = entry.name();
            if (name.equals(".") || name.equals("..") || name.contains("/")) {
                continue;
            }
            String child = RemotePaths.child(directory, name);
            if (entry.isDirectory()) {
                removeTree(child);
            } else {
                remove(child, false);
            }
        }
        remove(directory, true);
    }

    private void remove(String path, boolean directory) throws IOException {
        if (stopped.getAsBoolean()) {
            throw new StoppedException();
        }
        if (!dryRun) {
            if (directory) {
                destination.removeDirectory(path);
            } else {
                destination.delete(path);
            }
        }
        deleted++;
        deletions.deleted(path, directory);
    }

    private static List<FileInfo> listOrNull(GridFtpSession session, String directory) throws IOException {
        try {
            return new ArrayList<>(session.list(directory));
        } catch (NoSuchFileException e) {
            return null;
        } catch (GridFtpReplyException e) {
            if (e.replyCode() == 550) {
                return null;
            }
            throw e;
        }
    }
}
