package org.ferry.scheduler.plan;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.function.BooleanSupplier;
import org.ferry.mover.client.GridFtpReplyException;
import org.ferry.mover.client.GridFtpSession;
import org.ferry.mover.protocol.FileInfo;

/**
 * Deletes one path over a GridFTP session: a file or link with DELE (a link is removed, never
 * followed), a directory with its contents depth first (MLSD, DELE, RMD) when recursive.
 * Reports each removal as it happens ({@link Progress}).
 */
public final class DeleteWalk {

    /** The path is a directory and the task is not recursive. */
    public static final class NotRecursiveException extends IOException {
        private static final long serialVersionUID = 1L;

        NotRecursiveException(String path) {
            super(path + " is a directory; deleting it needs recursive");
        }
    }

    /** Told of every removal, after its reply. */
    @FunctionalInterface
    public interface Progress {
        /**
         * @param directory true for a directory (RMD), false for a file or link (DELE)
         * @throws StoppedException if the walk must stop now (the task's count was refused)
         */
        void removed(boolean directory) throws StoppedException;
    }

    /** The task was cancelled, suspended, ran past its deadline or is driven elsewhere now. */
    public static final class StoppedException extends IOException {
        private static final long serialVersionUID = 1L;

        public StoppedException() {
            super("stopped");
        }
    }

    private final GridFtpSession session;
    private final boolean recursive;
    private final BooleanSupplier stopped;
    private final Progress progress;

    /**
     * @param session an open session
     * @param recursive whether directories are removed with their contents
     * @param stopped true once the walk must stop (cancel, deadline), asked before every command
     * @param progress told of every removal
     */
    public DeleteWalk(GridFtpSession session, boolean recursive, BooleanSupplier stopped, Progress progress) {
        this.session = session;
        this.recursive = recursive;
        this.stopped = stopped;
        this.progress = progress;
    }

    /**
     * @param path absolute path
     * @return false if the path did not exist
     * @throws NotRecursiveException for a directory without recursive
     * @throws StoppedException when stopped
     * @throws IOException on any other GridFTP failure
     */
    public boolean delete(String path) throws IOException {
        FileInfo info;
        try {
            info = session.stat(path);
        } catch (NoSuchFileException e) {
            return false;
        } catch (GridFtpReplyException e) {
            if (e.replyCode() == 550) {
                return false;
            }
            throw e;
        }
        if (info.isDirectory()) {
            if (!recursive) {
                throw new NotRecursiveException(path);
            }
            removeTree(path);
        } else {
            checkStopped();
            session.delete(path);
            progress.removed(false);
        }
        return true;
    }

    private void removeTree(String directory) throws IOException {
        for (FileInfo entry : session.list(directory)) {
            checkStopped();
            String child = (directory.endsWith("/") ? directory : directory + "/") + entry.name();
            if (entry.isDirectory()) {
                removeTree(child);
            } else {
                checkStopped();
                session.delete(child);
                progress.removed(false);
            }
        }
        checkStopped();
        session.removeDirectory(directory);
        progress.removed(true);
    }

    private void checkStopped() throws StoppedException {
        if (stopped.getAsBoolean()) {
            throw new StoppedException();
        }
    }
}
