package org.ferry.scheduler.plan;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.ferry.api.domain.EventCode;
import org.ferry.api.domain.SyncLevel;
import org.ferry.api.domain.TransferItem;
import org.ferry.mover.client.GridFtpReplyException;
import org.ferry.mover.client.GridFtpSession;
import org.ferry.mover.protocol.FileInfo;
import org.ferry.mover.runner.FileTransfer;

/**
 * Turns a task's transfer items into the list of files to move: crawls recursive items on the
 * source with MLSD (depth first), creates the destination directory tree (parents first, empty
 * directories included), and applies the sync level against the destination listing. Symbolic
 * links inside a recursive item are not followed (service-semantics b.2).
 *
 * <p>One planner per planning run: it keeps counters. Not thread-safe.
 */
public final class TaskPlanner {

    private static final String CHECKSUM_ALGORITHM = "MD5";

    private final GridFtpSession source;
    private final GridFtpSession destination;
    private final SyncLevel syncLevel;
    private final Map<String, Long> alreadyTransferred;

    private final List<FileTransfer> toTransfer = new ArrayList<>();
    private long files;
    private long directories;
    private long filesSkipped;
    private long filesDone;
    private long bytesDone;

    /**
     * @param source logged-in source session
     * @param destination logged-in destination session
     * @param syncLevel sync level or null (always copy)
     * @param alreadyTransferred destination path to size of files an earlier run moved (resume);
     *     such a file is not moved again if the destination still has that size
     */
    public TaskPlanner(
            GridFtpSession source,
            GridFtpSession destination,
            SyncLevel syncLevel,
            Map<String, Long> alreadyTransferred) {
        this.source = source;
        this.destination = destination;
        this.syncLevel = syncLevel;
        this.alreadyTransferred = alreadyTransferred;
    }

    /**
     * @param items the task's items in order
     * @return the plan
     * @throws PlanningException for an item that cannot work (wrong file type)
     * @throws IOException for GridFTP failures (worth retrying)
     */
    public TransferPlan plan(List<TransferItem> items) throws IOException, PlanningException {
        for (TransferItem item : items) {
            if (item.isRecursive()) {
                planDirectory(item.getSourcePath(), item.getDestinationPath());
            } else {
                planFile(item.getSourcePath(), item.getDestinationPath());
            }
        }
        return new TransferPlan(List.copyOf(toTransfer), files, directories, filesSkipped, filesDone, bytesDone);
    }

    private void planDirectory(String sourcePath, String destinationPath) throws IOException, PlanningException {
        FileInfo root = source.stat(sourcePath);
        if (!root.isDirectory()) {
            throw new PlanningException(
                    EventCode.NOT_A_DIRECTORY, "Recursive item source " + sourcePath + " is not a directory");
        }
        boolean created = ensureDirectory(destinationPath);
        crawl(sourcePath, destinationPath, created);
    }

    private void crawl(String sourceDirectory, String destinationDirectory, boolean destinationIsNew)
            throws IOException, PlanningException {
        List<FileInfo> entries = new ArrayList<>(source.list(sourceDirectory));
        entries.sort(Comparator.comparing(FileInfo::name));
        Map<String, FileInfo> existing = destinationIsNew ? Map.of() : byName(destination.list(destinationDirectory));
        for (FileInfo entry : entries) {
            String name = entry.name();
            if (name.equals(".") || name.equals("..") || name.contains("/")) {
                continue;
            }
            String sourcePath = RemotePaths.child(sourceDirectory, name);
            String destinationPath = RemotePaths.child(destinationDirectory, name);
            if (entry.isFile()) {
                candidate(sourcePath, destinationPath, entry, existing.get(name));
            } else if (entry.isDirectory()) {
                directories++;
                FileInfo there = existing.get(name);
                boolean created = false;
                if (there == null) {
                    destination.makeDirectory(destinationPath);
                    created = true;
                } else if (!there.isDirectory()) {
                    throw new PlanningException(
                            EventCode.NOT_A_DIRECTORY,
                            "Destination " + destinationPath + " exists and is not a directory");
                }
                crawl(sourcePath, destinationPath, created);
            }
        }
    }

    private void planFile(String sourcePath, String destinationPath) throws IOException, PlanningException {
        FileInfo file = source.stat(sourcePath);
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
        candidate(sourcePath, destinationPath, file, there);
    }

    private void candidate(String sourcePath, String destinationPath, FileInfo file, FileInfo there)
            throws IOException {
        files++;
        Long doneBytes = alreadyTransferred.get(destinationPath);
        if (doneBytes != null
                && there != null
                && there.isFile()
                && there.sizeBytes() == doneBytes
                && doneBytes == file.sizeBytes()) {
            filesDone++;
            bytesDone += doneBytes;
            return;
        }
        boolean copy = SyncCheck.needsCopy(
                syncLevel,
                file,
                there,
                () -> source.checksum(CHECKSUM_ALGORITHM, sourcePath)
                        .equalsIgnoreCase(destination.checksum(CHECKSUM_ALGORITHM, destinationPath)));
        if (copy) {
            toTransfer.add(new FileTransfer(sourcePath, destinationPath, file.sizeBytes()));
        } else {
            filesSkipped++;
        }
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
        ensureDirectory(RemotePaths.parent(path));
        destination.makeDirectory(path);
        return true;
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
