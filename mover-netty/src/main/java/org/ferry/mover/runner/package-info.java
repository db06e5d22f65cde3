/**
 * The chunk runner: what moves one chunk of a task between two GridFTP endpoints, third party,
 * in the embedded worker of ferry-server and in a separate mover process alike. Lanes (one source
 * and one destination session each, as many as the chunk's concurrency) take big files one at a
 * time and runs of small files as pipelined batches ({@link org.ferry.mover.runner.LaneFeed});
 * each file is retried with back-off and resumes from the ranges the destination acknowledged in
 * its restart markers (GFD.020 "Restarting"). Results go to a
 * {@link org.ferry.mover.runner.ChunkListener}. Knows nothing of Spring, JPA or Kafka.
 */
package org.ferry.mover.runner;
