package org.ferry.scheduler.plan;

/**
 * What a task's items amounted to.
 *
 * @param files all regular files of the items
 * @param directories directories found under recursive items
 * @param filesSkipped files the sync level found current (not written as rows)
 * @param skippedErrors source paths skipped for errors ({@code skip_source_errors})
 * @param toMove files written as PENDING rows
 * @param excluded files and directories the filter rules left out (not counted in files)
 */
public record PlanTotals(
        long files, long directories, long filesSkipped, long skippedErrors, long toMove, long excluded) {}
