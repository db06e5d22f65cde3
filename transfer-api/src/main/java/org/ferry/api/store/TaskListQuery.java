package org.ferry.api.store;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import org.ferry.api.domain.TaskStatus;
import org.ferry.api.domain.TaskType;

/**
 * The conditions and order of a task list (the Globus {@code task_list} filter and {@code orderby},
 * parsed by the task service) as plain SQL over the {@code task} table: every condition is ANDed,
 * every value a bind parameter. Read by {@link TaskListRows}. Not thread-safe; one per request.
 */
public final class TaskListQuery {

    /** A column a list may be ordered by, and the one a time range may filter on. */
    public enum Column {
        /** {@code request_time} */
        REQUEST_TIME("request_time"),
        /** {@code completion_time} */
        COMPLETION_TIME("completion_time"),
        /** {@code deadline} */
        DEADLINE("deadline"),
        /** {@code label} */
        LABEL("label"),
        /** {@code status} (its name, so ordered by the text) */
        STATUS("status"),
        /** {@code type} (its name) */
        TYPE("type");

        private final String sql;

        Column(String sql) {
            this.sql = sql;
        }
    }

    private final List<String> where = new ArrayList<>();
    private final List<Object> args = new ArrayList<>();
    private final List<String> order = new ArrayList<>();

    /**
     * @param owner only this user's tasks
     * @return this
     */
    public TaskListQuery ownedBy(String owner) {
        return add("owner_name = ?", List.of(owner));
    }

    /**
     * @param statuses any of these (none: no task)
     * @return this
     */
    public TaskListQuery statusIn(Collection<TaskStatus> statuses) {
        return in("status", statuses.stream().map(Enum::name).toList());
    }

    /**
     * @param types any of these (none: no task)
     * @return this
     */
    public TaskListQuery typeIn(Collection<TaskType> types) {
        return in("type", types.stream().map(Enum::name).toList());
    }

    /**
     * @param ids any of these task ids (none: no task)
     * @return this
     */
    public TaskListQuery idIn(Collection<UUID> ids) {
        return in("id", List.copyOf(ids));
    }

    /**
     * @param label the label, exactly
     * @return this
     */
    public TaskListQuery labelIs(String label) {
        return add("label = ?", List.of(label));
    }

    /**
     * @param pattern an SQL LIKE pattern with {@code \} as its escape character
     * @return this
     */
    public TaskListQuery labelLike(String pattern) {
        return add("label like ? escape '\\'", List.of(pattern));
    }

    /**
     * @param pattern an SQL LIKE pattern with {@code \} as its escape character; a task without a
     *     label matches too
     * @return this
     */
    public TaskListQuery labelNotLike(String pattern) {
        return add("(label is null or label not like ? escape '\\')", List.of(pattern));
    }

    /**
     * @param column {@link Column#REQUEST_TIME} or {@link Column#COMPLETION_TIME}
     * @param from at or after this time, or null for no lower end
     * @param to at or before this time, or null for no upper end
     * @return this
     */
    public TaskListQuery between(Column column, Instant from, Instant to) {
        if (from != null) {
            add(column.sql + " >= ?", List.of(Sql.time(from)));
        }
        if (to != null) {
            add(column.sql + " <= ?", List.of(Sql.time(to)));
        }
        return this;
    }

    /**
     * Orders by one more column (after those given before). Nulls go where the database puts them,
     * as the JPA query did.
     *
     * @param column the column
     * @param descending whether the newest/largest come first
     * @return this
     */
    public TaskListQuery orderBy(Column column, boolean descending) {
        order.add(column.sql + (descending ? " desc" : " asc"));
        return this;
    }

    private TaskListQuery in(String column, List<?> values) {
        if (values.isEmpty()) {
            return add("1 = 0", List.of());
        }
        return add(column + " in (" + String.join(", ", Collections.nCopies(values.size(), "?")) + ")", values);
    }

    private TaskListQuery add(String condition, List<?> values) {
        where.add(condition);
        args.addAll(values);
        return this;
    }

    /** @return {@code where ...}, or empty for every task */
    String whereSql() {
        return where.isEmpty() ? "" : " where " + String.join(" and ", where);
    }

    /**
     * @return {@code order by ...}: the orders given, then the newest first, then by id (one order
     *     across offset pages for tasks submitted in the same millisecond)
     */
    String orderSql() {
        List<String> all = new ArrayList<>(order);
        all.add("request_time desc");
        all.add("id desc");
        return " order by " + String.join(", ", all);
    }

    /** @return the bind values of {@link #whereSql()}, in order */
    List<Object> args() {
        return args;
    }
}
