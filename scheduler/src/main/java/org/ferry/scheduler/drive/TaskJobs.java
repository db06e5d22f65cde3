package org.ferry.scheduler.drive;

import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.ferry.scheduler.TransferProperties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.stereotype.Component;

/**
 * The long work of the engine's steps, one job per task at a time, on
 * {@code ferry.transfer.planner-threads} threads: planning a transfer (a crawl), deleting a
 * mirror's extras, running a delete task. A job is asked to stop ({@link Job#stopRequested}) when
 * its task is cancelled, suspended or driven by another instance now; it looks between two
 * GridFTP commands. When a job ends the engine is woken, so that what the job made possible (a
 * planned task's chunks) happens at once.
 */
@Component
public class TaskJobs implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(TaskJobs.class);

    /** A running job's handle. */
    public static final class Job {
        private final String kind;
        private volatile boolean stop;

        private Job(String kind) {
            this.kind = kind;
        }

        /** @return true once the job should stop at its next GridFTP command */
        public boolean stopRequested() {
            return stop;
        }

        /** @return what the job does ({@code planning}, {@code mirror}, {@code delete}) */
        public String kind() {
            return kind;
        }
    }

    /** The work of a job. */
    @FunctionalInterface
    public interface Work {
        /**
         * @param job the job's handle (whether it should stop)
         */
        void run(Job job);
    }

    private final Map<UUID, Job> running = new ConcurrentHashMap<>();
    private final ExecutorService threads;
    private final Wakeup wakeup;

    /**
     * @param properties how many jobs run at once ({@code planner-threads})
     * @param wakeup woken when a job ends
     */
    public TaskJobs(TransferProperties properties, Wakeup wakeup) {
        this.wakeup = wakeup;
        AtomicInteger number = new AtomicInteger();
        this.threads = Executors.newFixedThreadPool(properties.plannerThreads(), r -> {
            Thread thread = new Thread(r, "ferry-planner-" + number.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
    }

    /**
     * Starts a job for the task unless one runs for it.
     *
     * @param taskId the task
     * @param kind what the job does, for logs
     * @param work the job
     * @return false if a job of the task was running already (nothing started)
     */
    public boolean start(UUID taskId, String kind, Work work) {
        Job job = new Job(kind);
        if (running.putIfAbsent(taskId, job) != null) {
            return false;
        }
        try {
            threads.submit(() -> {
                try {
                    work.run(job);
                } catch (RuntimeException e) {
                    log.error("The {} job of task {} failed", kind, taskId, e);
                } finally {
                    running.remove(taskId, job);
                    wakeup.wake();
                }
            });
        } catch (RuntimeException rejected) {
            running.remove(taskId, job); // shutting down
            return false;
        }
        return true;
    }

    /** Asks the task's job, if one runs here, to stop at its next command. */
    public void stop(UUID taskId) {
        Job job = running.get(taskId);
        if (job != null) {
            job.stop = true;
        }
    }

    /** @return the tasks whose jobs run here now */
    public Set<UUID> runningTasks() {
        return Set.copyOf(running.keySet());
    }

    /** Stops every job (the instance cannot renew its leases, or it stops). */
    public void stopAll() {
        running.values().forEach(job -> job.stop = true);
    }

    @Override
    public void destroy() {
        stopAll();
        threads.shutdownNow();
    }
}
