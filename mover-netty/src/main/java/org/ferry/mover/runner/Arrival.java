package org.ferry.mover.runner;

/**
 * What the destination holds of a file whose bytes were checked there (size or checksum).
 *
 * @param bytes the file's size
 * @param checksum {@code ALGORITHM:hex} (e.g. {@code ADLER32:0a1b2c3d}) when checksums were compared, else null
 */
record Arrival(long bytes, String checksum) {}
