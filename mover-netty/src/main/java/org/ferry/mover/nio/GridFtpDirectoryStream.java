package org.ferry.mover.nio;

import java.io.IOException;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.ferry.mover.protocol.FileInfo;

/**
 * The entries of one remote directory as one MLSD listing gave them (RFC 3659 section 7; the
 * listing is read whole when the stream opens, so the stream holds no session). Each path carries
 * its entry's facts for one later {@code readAttributes} without a round trip, which is how
 * {@code Files.walk} and {@code Files.walkFileTree} read a tree with one command per directory.
 */
final class GridFtpDirectoryStream implements DirectoryStream<Path> {

    private final GridFtpPath directory;
    private final List<FileInfo> entries;
    private final Filter<? super Path> filter;
    private boolean closed;
    private boolean iterated;

    GridFtpDirectoryStream(GridFtpPath directory, List<FileInfo> entries, Filter<? super Path> filter) {
        this.directory = directory;
        this.entries = entries;
        this.filter = filter;
    }

    /**
     * @throws IllegalStateException if the stream is closed or already iterated (the JDK's contract)
     */
    @Override
    public synchronized Iterator<Path> iterator() {
        if (closed) {
            throw new IllegalStateException("directory stream is closed");
        }
        if (iterated) {
            throw new IllegalStateException("a directory stream has one iterator");
        }
        iterated = true;
        Iterator<FileInfo> source = entries.iterator();
        return new Iterator<>() {
            private Path next;

            @Override
            public boolean hasNext() {
                while (next == null && !isClosed() && source.hasNext()) {
                    FileInfo entry = source.next();
                    GridFtpPath path = (GridFtpPath) directory.resolve(entry.name());
                    path.attachListedAttributes(new GridFtpFileAttributes(entry));
                    try {
                        if (filter == null || filter.accept(path)) {
                            next = path;
                        }
                    } catch (IOException e) {
                        throw new DirectoryIteratorException(e);
                    }
                }
                return next != null;
            }

            @Override
            public Path next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                Path result = next;
                next = null;
                return result;
            }
        };
    }

    private synchronized boolean isClosed() {
        return closed;
    }

    @Override
    public synchronized void close() {
        closed = true;
    }
}
