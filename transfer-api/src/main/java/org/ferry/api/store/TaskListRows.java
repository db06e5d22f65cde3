package org.ferry.api.store;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.ferry.api.domain.Task;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Pages of the task list in plain SQL: one statement for the page (with a flag per task for
 * further destinations), a count only when the page does not tell the total, and the further
 * destinations only of the tasks that have any. Monitoring clients poll the list several times a
 * second per user; a criteria query through Hibernate cost about a third of the API threads' CPU
 * (docs/benchmarks.md, "Many tasks at once"). Each statement runs on its own (no transaction): the
 * rows a page shows are read in one statement, its total and destinations are as of a moment later.
 */
@Component
public class TaskListRows {

    /** The page query's column after {@link Task#COLUMNS}: whether the task has further destinations. */
    private static final int MULTICAST = Task.COLUMNS.split(",").length + 1;

    private final JdbcTemplate jdbc;
    private final TaskStore store;

    /**
     * @param jdbc the database
     * @param store the further destinations of multicast tasks
     */
    public TaskListRows(JdbcTemplate jdbc, TaskStore store) {
        this.jdbc = jdbc;
        this.store = store;
    }

    /**
     * One page of a task list, with the total as Spring Data counts it (no count query when the
     * page itself shows the total: a first page that is not full, or a later one with rows that is
     * not full).
     *
     * @param query the conditions and order
     * @param limit page size, at least 1
     * @param offset first row, at least 0
     * @return the page
     */
    public TaskListPage page(TaskListQuery query, int limit, long offset) {
        List<Object> args = new ArrayList<>(query.args());
        args.add(limit);
        args.add(offset);
        List<UUID> multicast = new ArrayList<>();
        List<Task> tasks = jdbc.query(
                "select " + Task.COLUMNS + ", exists (select 1 from task_destination d where d.task_id = t.id)"
                        + " from task t" + query.whereSql() + query.orderSql() + " limit ? offset ?",
                (rs, n) -> {
                    Task task = Task.read(rs);
                    if (rs.getBoolean(MULTICAST)) {
                        multicast.add(task.getId());
                    }
                    return task;
                },
                args.toArray());
        long total;
        if (tasks.size() < limit && (offset == 0 || !tasks.isEmpty())) {
            total = offset + tasks.size();
        } else {
            Long counted = jdbc.queryForObject(
                    "select count(*) from task" + query.whereSql(),
                    Long.class,
                    query.args().toArray());
            total = counted == null ? 0 : counted;
        }
        Map<UUID, List<NewTask.Destination>> destinations =
                multicast.isEmpty() ? Map.of() : store.additionalDestinations(multicast);
        return new TaskListPage(tasks, total, destinations);
    }

    /**
     * One page of a task list.
     *
     * @param tasks the page's tasks, in order
     * @param total tasks in all pages
     * @param additionalDestinations the further destinations (Ferry's multicast extension) of
     *     those tasks that have any, each in order
     */
    public record TaskListPage(
            List<Task> tasks, long total, Map<UUID, List<NewTask.Destination>> additionalDestinations) {}
}
