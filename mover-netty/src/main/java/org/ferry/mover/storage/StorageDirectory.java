package org.ferry.mover.storage;

import java.nio.channels.FileChannel;

/**
 * Files directly inside one directory of a {@link StorageInterface}, addressed by plain name (no
 * {@code /}, not {@code .} or {@code ..}; the caller checks). Confinement to the root holds as for
 * the interface's own methods. Thread-safe; the methods block. Close it when the batch is done (it
 * may hold the directory open).
 */
public interface StorageDirectory extends AutoCloseable {

    /**
     * @param name a regular file in the directory
     * @return its size in bytes, as {@link #openForRead} would read it
     * @throws StorageException NOT_FOUND, IS_A_DIRECTORY, PERMISSION_DENIED, OTHER
     */
    long size(String name) throws StorageException;

    /**
     * @param name a regular file in the directory
     * @return a channel open for reading; the caller closes it
     * @throws StorageException NOT_FOUND, IS_A_DIRECTORY, PERMISSION_DENIED, OTHER
     */
    FileChannel openForRead(String name) throws StorageException;

    /**
     * Creates the file, or truncates it if it exists, and opens it for writing. A symbolic link of
     * that name is not written through.
     *
     * @param name the file
     * @return a channel open for writing; the caller closes it
     * @throws StorageException IS_A_DIRECTORY, PERMISSION_DENIED (also for a symbolic link),
     *     NO_SPACE, OTHER
     */
    FileChannel create(String name) throws StorageException;

    /**
     * Releases the directory.
     *
     * @throws StorageException OTHER if closing fails
     */
    @Override
    default void close() throws StorageException {}
}
