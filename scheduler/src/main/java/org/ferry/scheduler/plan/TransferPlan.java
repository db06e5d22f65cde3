package org.ferry.scheduler.plan;

import java.util.List;
import org.ferry.mover.runner.FileTransfer;

/**
 * What a task's items amount to.
 *
 * @param toTransfer files still to move
 * @param files all regular files of the items
 * @param directories directories found under recursive items
 * @param filesSkipped files the sync level found current
 * @param filesDone files a previous run of this task already moved (resume)
 * @param bytesDone their bytes
 */
public record TransferPlan(
        List<FileTransfer> toTransfer,
        long files,
        long directories,
        long filesSkipped,
        long filesDone,
        long bytesDone) {}
