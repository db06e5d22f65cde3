package org.ferry.mover.runner;

/**
 * What the destination holds of a file whose bytes were checked there (size or checksum).
 *
 * @param bytes the file's size
 * @param checksum {@code MD5:hex} when checksums were compared, else null
 */
record Arrival(long bytes, String checksum) {}
