/**
 * The JDK's {@code java.nio.file} API over GridFTP: {@code Path.of(URI.create("gsiftp://host/x"))}
 * with {@code Files} reading (partial retrieves, read-ahead over MODE E), writing, listing,
 * attributes, copies (third-party between servers) and renames, for {@code ftp://} and
 * {@code gsiftp://}. Entry point: {@link org.ferry.mover.nio.GridFtpFileSystemProvider}. Built on
 * {@link org.ferry.mover.client}; knows nothing of the service.
 */
package org.ferry.mover.nio;
