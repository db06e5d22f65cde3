package org.ferry.mover.runner;

/**
 * One file to move.
 *
 * @param sourcePath absolute path on the source endpoint
 * @param destinationPath absolute path on the destination endpoint
 * @param sizeBytes source size when planned
 */
public record FileTransfer(String sourcePath, String destinationPath, long sizeBytes) {}
