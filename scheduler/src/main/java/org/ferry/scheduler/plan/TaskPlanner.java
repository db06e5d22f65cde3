package org.ferry.scheduler.plan;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.ferry.api.domain.EventCode;
import org.ferry.api.domain.FilterRules;
import org.ferry.api.domain.SyncLevel;
import org.ferry.api.domain.TransferItem;
import org.ferry.api.store.PlannedFile;
import org.ferry.mover.client.GridFtpReplyException;
import org.ferry.mover.client.GridFtpSession;
import org.ferry.mover.protocol.FileInfo;
import org.ferry.mover.runner.FaultCode;
import org.ferry.mover.runner.Faults;

/**
 * Turns a task's transfer items into file rows: crawls recursive items on the source with MLSD
 * (depth first), creates the destination directory tree (parents first, empty directories
 * included), applies the sync level against the destination listing, and hands each file to move
 * to a {@link PlanSink} as it is found, so that only one directory's listing is in memory at a
 * time. Symbolic links inside a recursive item are not followed (service-semantics b.2). The
 * task's {@link FilterRules} decide which names of a recursive item's tree take part (an excluded
 * directory is neither crawled nor created).
 *
 * <p>A dry run crawls the same way and changes nothing: no destination directory is made, and a
 * missing one counts as empty.
 *
 * <p>A planning runs once per task: the rows it writes are the truth from then on, so a
 * partially written destination file of this task is never judged by the sync level.
 *
 * <p>Source errors (a missing or unreadable item, or directory below one): with
 * {@code skip_source_errors} the path becomes a SKIPPED row; without, planning stops with a
 * {@link PlanningException} naming the path (the task fails). One planner per planning run: it
 * keeps counters. Not thread-safe.
 */
public final class TaskPlanner {

    private final GridFtpSession source;
    private final GridFtpSession destination;
    private final List<GridFtpSession> further;
    private final SyncLevel syncLevel;
    private final boolean skipSourceErrors;
    private final PlanSink sink;
    private final FilterRules filters;
    private final boolean dryRun;
    private final String checksumAlgorithm;

    private long files;
    private long directories;
    private long filesSkipped;
    private long skippedErrors;
    private long toMove;
    private long excluded;

    /**
     * @param source logged-in source session
     * @param destination logged-in destination session
     * @param syncLevel sync level or null (always copy)
     * @param skipSourceErrors skip missing or unreadable source paths instead of failing
     * @param sink where the files go
     */
    public TaskPlanner(
            GridFtpSession source,
            GridFtpSession destination,
            SyncLevel syncLevel,
            boolean skipSourceErrors,
            PlanSink sink) {
        this(source, destination, syncLevel, skipSourceErrors, FilterRules.none(), false, sink);
    }

    /**
     * @param source logged-in source session
     * @param destination logged-in destination session
     * @param syncLevel sync level or null (always copy)
     * @param skipSourceErrors skip missing or unreadable source paths instead of failing
     * @param filters the filter rules for recursive items
     * @param dryRun change nothing on the destination (make no directory)
     * @param sink where the files go
     */
    public TaskPlanner(
            GridFtpSession source,
            GridFtpSession destination,
            SyncLevel syncLevel,
            boolean skipSourceErrors,
            FilterRules filters,
            boolean dryRun,
            PlanSink sink) {
        this(source, destination, syncLevel, skipSourceErrors, filters, dryRun, "MD5", sink);
    }

    /**
     * @param source logged-in source session
     * @param destination logged-in destination session
     * @param syncLevel sync level or null (always copy)
     * @param skipSourceErrors skip missing or unreadable source paths instead of failing
     * @param filters the filter rules for recursive items
     * @param dryRun change nothing on the destination (make no directory)
     * @param checksumAlgorithm what sync level 3 compares (a CKSM name, the task's {@code
     *     checksum_algorithm})
     * @param sink where the files go
     */
    public TaskPlanner(
            GridFtpSession source,
            GridFtpSession destination,
            SyncLevel syncLevel,
            boolean skipSourceErrors,
            FilterRules filters,
            boolean dryRun,
            String checksumAlgorithm,
            PlanSink sink) {
        this(source, destination, List.of(), syncLevel, skipSourceErrors, filters, dryRun, checksumAlgorithm, sink);
    }

    /**
     * @param source logged-in source session
     * @param destination logged-in destination session
     * @param further logged-in sessions to a multicast task's further destinations: each gets the
     *     destination's directory tree (empty directories included); their listings play no part
     * @param syncLevel sync level or null (always copy)
     * @param skipSourceErrors skip missing or unreadable source paths instead of failing
     * @param filters the filter rules for recursive items
     * @param dryRun change nothing on the destination (make no directory)
     * @param checksumAlgorithm what sync level 3 compares (a CKSM name, the task's {@code
     *     checksum_algorithm})
     * @param sink where the files go
     */
    public TaskPlanner(
            GridFtpSession source,
            GridFtpSession destination,
            List<GridFtpSession> further,
            SyncLevel syncLevel,
            boolean skipSourceErrors,
            FilterRules filters,
            boolean dryRun,
            String checksumAlgorithm,
            PlanSink sink) {
        this.checksumAlgorithm = checksumAlgorithm;
        this.source = source;
        this.destination = destination;
        this.further = List.copyOf(further);
        this.syncLevel = syncLevel;
        this.skipSourceErrors = skipSourceErrors;
        this.filters = filters;
        this.dryRun = dryRun;
        this.sink = sink;
    }

    /**
     * @param items the task's items in order
     * @return the totals
     * @throws PlanningException for an item that cannot work (wrong file type, a source error
     *     without {@code skip_source_errors})
     * @throws IOException for other GridFTP failures (worth retrying)
     */
    public PlanTotals plan(List<TransferItem> items) throws IOException, PlanningException {
        for (TransferItem item : items) {
            if (item.isRecursive()) {
                planDirectory(item.getSourcePath(), item.getDestinationPath());
            } else {
                planFile(item.getSourcePath(), item.getDestinationPath(), item.getExternalChecksum());
            }
        }
        return new PlanTotals(files, directories, filesSkipped, skippedErrors, toMove, excluded);
    }

    private void planDirectory(String sourcePath, String destinationPath) throws IOException, PlanningException {
        FileInfo root = sourceStat(sourcePath, destinationPath);
        if (root == null) {
            return;
        }
        if (!root.isDirectory()) {
            throw new PlanningException(
                    EventCode.NOT_A_DIRECTORY, "Recursive item source " + sourcePath + " is not a directory");
        }
        boolean created = ensureDirectory(destinationPath);
        ensureFurther(destinationPath);
        crawl(sourcePath, destinationPath, created);
    }

    private void crawl(String sourceDirectory, String destinationDirectory, boolean destinationIsNew)
            throws IOException, PlanningException {
        List<FileInfo> entries = sourceList(sourceDirectory, destinationDirectory);
        if (entries == null) {
            return;
        }
        entries.sort(Comparator.comparing(FileInfo::name));
        Map<String, FileInfo> existing = destinationIsNew ? Map.of() : byName(destination.list(destinationDirectory));
        for (FileInfo entry : entries) {
            String name = entry.name();
            if (name.equals(".") || name.equals("..") || name.contains("/")) {
                continue;
            }
            String sourcePath = RemotePaths.child(sourceDirectory, name);
            String destinationPath = RemotePaths.child(destinationDirectory, name);
            if ((entry.isFile() || entry.isDirectory()) && !filters.includes(name, entry.isDirectory())) {
                excluded++;
                sink.excluded(sourcePath, destinationPath, entry.isDirectory());
                continue;
            }
            if (entry.isFile()) {
                candidate(sourcePath, destinationPath, entry, existing.get(name), null);
            } else if (entry.isDirectory()) {
                directories++;
                FileInfo there = existing.get(name);
                boolean created = false;
                if (there == null) {
                    if (!dryRun) {
                        destination.makeDirectory(destinationPath);
                    }
                    created = true;
                } else if (!there.isDirectory()) {
                    throw new PlanningException(
                            EventCode.NOT_A_DIRECTORY,
                            "Destination " + destinationPath + " exists and is not a directory");
                }
                ensureFurther(destinationPath);
                crawl(sourcePath, destinationPath, created);
            }
        }
    }

    private void planFile(String sourcePath, String destinationPath, String externalChecksum)
            throws IOException, PlanningException {
        FileInfo file = sourceStat(sourcePath, destinationPath);
        if (file == null) {
            return;
        }
        if (file.isDirectory()) {
            throw new PlanningException(
                    EventCode.NOT_A_FILE, "Source " + sourcePath + " is a directory; transfer it as a recursive item");
        }
        ensureDirectory(RemotePaths.parent(destinationPath));
        FileInfo there = statOrNull(destination, destinationPath);
        if (there != null && there.isDirectory()) {
            throw new PlanningException(
                    EventCode.IS_A_DIRECTORY,
                    "Destination " + destinationPath + " is a directory; name the destination file");
        }
        candidate(sourcePath, destinationPath, file, there, externalChecksum);
    }

    private void candidate(
            String sourcePath, String destinationPath, FileInfo file, FileInfo there, String externalChecksum)
            throws IOException {
        files++;
        boolean copy = SyncCheck.needsCopy(
                syncLevel,
                file,
                there,
                () -> source.checksum(checksumAlgorithm, sourcePath)
                        .equalsIgnoreCase(destination.checksum(checksumAlgorithm, destinationPath)));
        if (copy) {
            toMove++;
            sink.add(PlannedFile.toMove(
                    sourcePath, destinationPath, file.sizeBytes(), file.modified(), externalChecksum));
        } else {
            filesSkipped++;
            sink.current(sourcePath, destinationPath, file.sizeBytes());
        }
    }

    /** @return the source path's facts, or null when it was skipped (a source error with skip_source_errors) */
    private FileInfo sourceStat(String sourcePath, String destinationPath) throws IOException, PlanningException {
        try {
            return source.stat(sourcePath);
        } catch (IOException e) {
            return sourceError(e, sourcePath, destinationPath);
        }
    }

    /** @return the directory's entries, or null when it was skipped */
    private List<FileInfo> sourceList(String sourceDirectory, String destinationDirectory)
            throws IOException, PlanningException {
        try {
            return new ArrayList<>(source.list(sourceDirectory));
        } catch (IOException e) {
            return sourceError(e, sourceDirectory, destinationDirectory);
        }
    }

    /**
     * A missing or unreadable source path is permanent (service-semantics b.4): skipped with
     * {@code skip_source_errors}, else the task fails naming it; other failures are rethrown.
     */
    private <T> T sourceError(IOException failure, String sourcePath, String destinationPath)
            throws IOException, PlanningException {
        FaultCode code = Faults.code(failure);
        if (!code.isPermanent()) {
            throw failure;
        }
        String description = "Source " + sourcePath + ": "
                + String.valueOf(failure.getMessage()).strip();
        if (!skipSourceErrors) {
            throw new PlanningException(EventCode.valueOf(code.name()), description);
        }
        skippedErrors++;
        sink.add(PlannedFile.skipped(sourcePath, destinationPath, code.name(), description));
        return null;
    }

    /** Creates a destination directory and its missing parents; returns true if it was created. */
    private boolean ensureDirectory(String path) throws IOException, PlanningException {
        if (path.equals("/")) {
            return false;
        }
        FileInfo there = statOrNull(destination, path);
        if (there != null) {
            if (!there.isDirectory()) {
                throw new PlanningException(
                        EventCode.NOT_A_DIRECTORY, "Destination " + path + " exists and is not a directory");
            }
            return false;
        }
        if (dryRun) {
            return true; // a missing directory is empty: what is below it needs no listing
        }
        ensureDirectory(RemotePaths.parent(path));
        destination.makeDirectory(path);
        return true;
    }

    /**
     * Makes a directory (and its missing parents) at every further destination of a multicast
     * task, unless this is a dry run: the mover makes only the directories its files need there.
     */
    private void ensureFurther(String path) throws IOException, PlanningException {
        if (dryRun) {
            return;
        }
        for (GridFtpSession other : further) {
            ensureAt(other, path);
        }
    }

    private static void ensureAt(GridFtpSession session, String path) throws IOException, PlanningException {
        if (path.equals("/")) {
            return;
        }
        FileInfo there = statOrNull(session, path);
        if (there != null) {
            if (!there.isDirectory()) {
                throw new PlanningException(
                        EventCode.NOT_A_DIRECTORY,
                        "Destination " + path + " exists and is not a directory at a further destination");
            }
            return;
        }
        ensureAt(session, RemotePaths.parent(path));
        session.makeDirectory(path);
    }

    private static FileInfo statOrNull(GridFtpSession session, String path) throws IOException {
        try {
            return session.stat(path);
        } catch (NoSuchFileException e) {
            return null;
        } catch (GridFtpReplyException e) {
            if (e.replyCode() == 550) {
                return null;
            }
            throw e;
        }
    }

    private static Map<String, FileInfo> byName(List<FileInfo> entries) {
        Map<String, FileInfo> map = new HashMap<>();
        for (FileInfo entry : entries) {
            map.put(entry.name(), entry);
        }
        return map;
    }
}
