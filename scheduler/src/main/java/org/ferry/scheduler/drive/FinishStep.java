package org.ferry.scheduler.drive;

import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.ferry.api.store.FileStore;
import org.ferry.api.store.LeasedTask;
import org.springframework.stereotype.Component;

/**
 * Ends the planned transfers that have no file left to move ({@link TaskEnding#finishIfDone}: the
 * result applier ends a task as its last file lands, and this catches one whose end a database
 * outage cut short, on the passes that renew the leases), and hands a mirror whose every file arrived to its deletion job
 * ({@link MirrorJob}: the destination's extras go, then the task ends).
 */
@Component
public class FinishStep implements TickStep {

    private final FileStore files;
    private final TaskEnding ending;
    private final MirrorJob mirrors;
    private final TaskJobs jobs;

    /**
     * @param files the file store
     * @param ending ends tasks
     * @param mirrors deletes a mirror's extras
     * @param jobs runs that deletion off the engine's thread
     */
    public FinishStep(FileStore files, TaskEnding ending, MirrorJob mirrors, TaskJobs jobs) {
        this.files = files;
        this.ending = ending;
        this.mirrors = mirrors;
        this.jobs = jobs;
    }

    @Override
    public String name() {
        return "finish";
    }

    @Override
    public void run(Tick tick) {
        // the safety net once per tick interval (on the passes that renew the leases): with
        // hundreds of short tasks the passes woken by their ends come every few milliseconds, and
        // asking each time of every leased task cost a tenth of the engine's thread; a mirror
        // waiting for its deletion job is handed on at every pass
        List<LeasedTask> planned = tick.transfers().stream()
                .filter(task -> task.planned() && !tick.expired(task) && (tick.renewal() || task.mirrorPending()))
                .toList();
        if (planned.isEmpty()) {
            return;
        }
        // one statement for the pass, not one per leased task
        Set<UUID> open =
                files.withOpenFiles(planned.stream().map(LeasedTask::id).toList());
        for (LeasedTask task : planned) {
            if (open.contains(task.id())) {
                continue;
            }
            if (!task.mirrorPending()) {
                ending.finishIfDone(task.id());
            } else if (tick.readyNow(task)) {
                jobs.start(task.id(), "mirror", job -> mirrors.mirror(task.id(), job));
            }
        }
    }
}
