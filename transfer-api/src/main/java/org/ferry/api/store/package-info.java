/**
 * The one owner of task, file (subtask) and chunk state: {@link org.ferry.api.store.TaskStore}
 * and {@link org.ferry.api.store.FileStore} are the only writers of the {@code task},
 * {@code transfer_item}, {@code delete_item}, {@code task_event}, {@code transfer_file} and
 * {@code chunk} tables (ArchitectureTest holds it). One persistence style: SQL through Spring's
 * {@code JdbcTemplate}, every change a conditional single-statement update guarded by the row's
 * state as the transition tables say ({@link org.ferry.api.store.TaskTransition},
 * {@link org.ferry.api.store.FileTransition}, {@link org.ferry.api.store.ChunkTransition}), so that
 * results delivered twice, a cancel racing a mover, or two ferry-server instances cannot undo each
 * other. The JPA entities of these tables are read-only views for the API's queries. Callers hold
 * the transaction.
 */
package org.ferry.api.store;
