package org.ferry.api.store;

import java.sql.PreparedStatement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.ferry.api.domain.FileState;
import org.ferry.mover.protocol.ByteRange;
import org.ferry.mover.runner.FileTransfer;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.support.GeneratedKeyHolder;
import org.springframework.jdbc.support.KeyHolder;
import org.springframework.stereotype.Component;

/**
 * The file (subtask) rows of tasks and the chunks they are dispatched in: every write of the
 * {@code transfer_file} and {@code chunk} tables. A file's state changes only by a
 * {@link FileTransition} and a chunk's by a {@link ChunkTransition}, each a conditional update on
 * the row's state (and, for a mover's result, its chunk and attempt), so that a result applied
 * twice, late, or from a chunk taken from a lost mover changes nothing. Written in batches
 * (planning inserts, dispatch and result updates) so that a task of a million files never sits in
 * memory. Callers hold the transaction.
 */
@Component
public class FileStore {

    private static final String PENDING = FileState.PENDING.name();
    private static final String ACTIVE = FileState.ACTIVE.name();
    /** Ids bound in one {@code in (...)} list (far below PostgreSQL's 32,767 parameters). */
    private static final int IDS_PER_STATEMENT = 1000;

    private final JdbcTemplate jdbc;

    /** @param jdbc the database */
    public FileStore(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** Forgets the rows of a planning that did not finish (it starts again from scratch). */
    public void deleteAll(UUID taskId) {
        jdbc.update("delete from transfer_file where task_id = ?", taskId);
    }

    /** Inserts planned rows: PENDING, or SKIPPED for a skipped source error. */
    public void insert(UUID taskId, List<PlannedFile> files) {
        Instant now = Instant.now();
        jdbc.batchUpdate(
                "insert into transfer_file (task_id, source_path, destination_path, size_bytes, state, attempts,"
                        + " bytes_acknowledged, fault_code, fault_description, completion_time, source_modified,"
                        + " external_checksum) values (?, ?, ?, ?, ?, 0, 0, ?, ?, ?, ?, ?)",
                files,
                500,
                (PreparedStatement ps, PlannedFile file) -> {
                    boolean skipped = file.skippedCode() != null;
                    ps.setObject(1, taskId);
                    ps.setString(2, file.sourcePath());
                    ps.setString(3, file.destinationPath());
                    ps.setLong(4, file.sizeBytes());
                    ps.setString(5, skipped ? FileState.SKIPPED.name() : PENDING);
                    ps.setString(6, file.skippedCode());
                    ps.setString(7, Sql.cut(file.skippedDescription(), 2000));
                    ps.setTimestamp(8, skipped ? Sql.time(now) : null);
                    ps.setTimestamp(9, Sql.time(file.sourceModified()));
                    ps.setString(10, file.externalChecksum());
                });
    }

    /**
     * {@link #hasOpenFiles} for many tasks in one statement per {@value #IDS_PER_STATEMENT} ids (the
     * engine's pass asks it of every leased task).
     *
     * @param taskIds the tasks
     * @return those of them that have files PENDING or ACTIVE
     */
    public Set<UUID> withOpenFiles(List<UUID> taskIds) {
        Set<UUID> open = new HashSet<>();
        for (int from = 0; from < taskIds.size(); from += IDS_PER_STATEMENT) {
            List<UUID> group = taskIds.subList(from, Math.min(taskIds.size(), from + IDS_PER_STATEMENT));
            List<Object> arguments = new ArrayList<>(group);
            arguments.add(PENDING);
            arguments.add(ACTIVE);
            // exists: one index probe per task that stops at its first open file; "select distinct
            // task_id ... where state in (...)" read every open row, a million of them for a big
            // task, on every engine pass
            open.addAll(jdbc.queryForList(
                    "select t.id from task t where t.id in ("
                            + String.join(", ", Collections.nCopies(group.size(), "?"))
                            + ") and exists (select 1 from transfer_file f where f.task_id = t.id"
                            + " and f.state in (?, ?))",
                    UUID.class,
                    arguments.toArray()));
        }
        return open;
    }

    /** @return true while the task has files PENDING or ACTIVE */
    public boolean hasOpenFiles(UUID taskId) {
        return !jdbc.queryForList(
                        "select id from transfer_file where task_id = ? and state in (?, ?) fetch first 1 rows only",
                        Long.class,
                        taskId,
                        PENDING,
                        ACTIVE)
                .isEmpty();
    }

    /**
     * @return the fault code and description of one FAILED file of the task (naming the file), or
     *     null if none failed
     */
    public String[] firstFailure(UUID taskId) {
        List<String[]> failed = jdbc.query(
                "select fault_code, fault_description, source_path from transfer_file where task_id = ? and state = ?"
                        + " order by id fetch first 1 rows only",
                (rs, n) -> new String[] {
                    rs.getString(1) == null ? "UNKNOWN" : rs.getString(1),
                    rs.getString(2) == null ? "File " + rs.getString(3) + " failed" : rs.getString(2)
                },
                taskId,
                FileState.FAILED.name());
        return failed.isEmpty() ? null : failed.get(0);
    }

    /** @return true if the task has a PENDING file ready to go (its back-off over) */
    public boolean hasReadyFiles(UUID taskId, Instant now) {
        return !jdbc.queryForList(
                        "select id from transfer_file where task_id = ? and state = ?"
                                + " and (next_attempt_time is null or next_attempt_time <= ?) fetch first 1 rows only",
                        Long.class,
                        taskId,
                        PENDING,
                        Sql.time(now))
                .isEmpty();
    }

    /**
     * @return up to {@code limit} PENDING files of the task whose back-off is over, smallest first,
     *     each in the one shape a file has on its way to a mover (with the ranges it resumes from)
     *     (so that a chunk holds files of similar size and is tuned as one)
     */
    public List<FileTransfer> ready(UUID taskId, Instant now, int limit) {
        return jdbc.query(
                "select id, source_path, destination_path, size_bytes, acknowledged, attempts, source_modified,"
                        + " external_checksum from transfer_file"
                        + " where task_id = ? and state = ? and (next_attempt_time is null or next_attempt_time <= ?)"
                        // the index's own order (task_id, state, size_bytes, id): H2 then reads the first
                        // rows of the index instead of sorting every pending row of the task
                        + " order by task_id, state, size_bytes, id fetch first " + limit + " rows only",
                (rs, n) -> new FileTransfer(
                        rs.getLong(1),
                        rs.getString(2),
                        rs.getString(3),
                        rs.getLong(4),
                        ranges(rs.getString(5)),
                        rs.getInt(6),
                        Sql.instant(rs.getTimestamp(7)),
                        rs.getString(8)),
                taskId,
                PENDING,
                Sql.time(now));
    }

    /** @return the acknowledged ranges as stored ({@code a-b,c-d}), none for null or blank */
    private static List<ByteRange> ranges(String stored) {
        return stored == null || stored.isBlank() ? List.of() : ByteRange.parseList(stored);
    }

    /**
     * Creates an ACTIVE chunk and moves its files into it ({@link FileTransition#DISPATCH}).
     *
     * @return the chunk id
     * @throws IllegalStateException if another instance took some of the files first (the caller's
     *     transaction then rolls back: nothing changed)
     */
    public long createChunk(UUID taskId, String ownerName, String endpointPair, List<FileTransfer> files, Instant now) {
        return createChunk(taskId, ownerName, endpointPair, files, 2, now);
    }

    /**
     * Creates an ACTIVE chunk that opens the given session pairs and moves its files into it
     * ({@link FileTransition#DISPATCH}).
     *
     * @param sessionPairs the chunk's lanes (its concurrency), counted against its pair's optimizer value
     * @return the chunk id
     * @throws IllegalStateException if another instance took some of the files first (the caller's
     *     transaction then rolls back: nothing changed)
     */
    public long createChunk(
            UUID taskId,
            String ownerName,
            String endpointPair,
            List<FileTransfer> files,
            int sessionPairs,
            Instant now) {
        long bytes = files.stream().mapToLong(FileTransfer::sizeBytes).sum();
        KeyHolder key = new GeneratedKeyHolder();
        jdbc.update(
                connection -> {
                    PreparedStatement ps = connection.prepareStatement(
                            "insert into chunk (task_id, owner_name, endpoint_pair, state, files, size_bytes,"
                                    + " bytes_in_flight, dispatch_time, heartbeat_time, session_pairs)"
                                    + " values (?, ?, ?, 'ACTIVE', ?, ?, 0, ?, ?, ?)",
                            new String[] {"id"});
                    ps.setObject(1, taskId);
                    ps.setString(2, ownerName);
                    ps.setString(3, endpointPair);
                    ps.setInt(4, files.size());
                    ps.setLong(5, bytes);
                    ps.setTimestamp(6, Sql.time(now));
                    ps.setTimestamp(7, Sql.time(now));
                    ps.setInt(8, sessionPairs);
                    return ps;
                },
                key);
        long chunkId = key.getKey().longValue();
        // one statement per group of ids rather than one per file: the per-row updates were half of
        // the scheduler thread's CPU for chunks of small files
        for (int from = 0; from < files.size(); from += IDS_PER_STATEMENT) {
            List<FileTransfer> group = files.subList(from, Math.min(files.size(), from + IDS_PER_STATEMENT));
            List<Object> arguments = new ArrayList<>(group.size() + 3);
            arguments.add(FileTransition.DISPATCH.to().name());
            arguments.add(chunkId);
            arguments.add(FileTransition.DISPATCH.from().name());
            group.forEach(file -> arguments.add(file.id()));
            int updated = jdbc.update(
                    // by primary key (ids are the task's: ready() read them); the state guards against
                    // another instance that took a file meanwhile
                    "update transfer_file set state = ?, chunk_id = ? where state = ? and id in ("
                            + String.join(",", Collections.nCopies(group.size(), "?")) + ")",
                    arguments.toArray());
            if (updated != group.size()) {
                throw new IllegalStateException("a file of chunk " + chunkId + " was taken meanwhile");
            }
        }
        return chunkId;
    }

    /**
     * Active chunks per user and per endpoint pair, over every instance (the limits are global).
     *
     * @param perUser filled with user to count
     * @param perPair filled with endpoint pair to count
     * @param perTask filled with task to count
     * @return all active chunks
     */
    public int activeChunks(Map<String, Integer> perUser, Map<String, Integer> perPair, Map<UUID, Integer> perTask) {
        return activeChunks(perUser, perPair, perTask, new HashMap<>());
    }

    /**
     * Active chunks per user, endpoint pair and task, and the session pairs they hold per endpoint
     * pair, over every instance (the limits are global).
     *
     * @param perUser filled with user to count
     * @param perPair filled with endpoint pair to count
     * @param perTask filled with task to count
     * @param sessionsPerPair filled with endpoint pair to session pairs of its active chunks
     * @return all active chunks
     */
    public int activeChunks(
            Map<String, Integer> perUser,
            Map<String, Integer> perPair,
            Map<UUID, Integer> perTask,
            Map<String, Integer> sessionsPerPair) {
        int[] total = {0};
        jdbc.query(
                "select c.owner_name, c.endpoint_pair, c.task_id, count(*), sum(c.session_pairs)"
                        + " from chunk c join task t on t.id = c.task_id"
                        + " where c.state = 'ACTIVE' and t.status = 'ACTIVE'"
                        + " group by c.owner_name, c.endpoint_pair, c.task_id",
                rs -> {
                    int count = rs.getInt(4);
                    perUser.merge(rs.getString(1), count, Integer::sum);
                    perPair.merge(rs.getString(2), count, Integer::sum);
                    perTask.merge(rs.getObject(3, UUID.class), count, Integer::sum);
                    sessionsPerPair.merge(rs.getString(2), rs.getInt(5), Integer::sum);
                    total[0] += count;
                });
        return total[0];
    }

    /**
     * @param chunkIds chunks
     * @return each found chunk's endpoint pair ({@code source>destination})
     */
    public Map<Long, String> chunkPairs(Collection<Long> chunkIds) {
        Map<Long, String> pairs = new HashMap<>();
        List<Long> ids = new ArrayList<>(chunkIds);
        for (int from = 0; from < ids.size(); from += IDS_PER_STATEMENT) {
            List<Long> group = ids.subList(from, Math.min(ids.size(), from + IDS_PER_STATEMENT));
            jdbc.query(
                    "select id, endpoint_pair from chunk where id in ("
                            + String.join(",", Collections.nCopies(group.size(), "?")) + ")",
                    rs -> {
                        pairs.put(rs.getLong(1), rs.getString(2));
                    },
                    group.toArray());
        }
        return pairs;
    }

    /**
     * @param owner the lease owner whose tasks to look at
     * @param silentSince chunks whose last heartbeat is older are lost
     * @return ids of active chunks of this instance's tasks whose mover went silent
     */
    public List<Long> silentChunks(String owner, Instant silentSince) {
        return jdbc.queryForList(
                "select c.id from chunk c join task t on t.id = c.task_id where c.state = 'ACTIVE'"
                        + " and t.status = 'ACTIVE' and t.lease_owner = ? and c.heartbeat_time < ?",
                Long.class,
                owner,
                Sql.time(silentSince));
    }

    /**
     * Ends a chunk ({@link ChunkTransition#FINISH}: its mover finished; {@link
     * ChunkTransition#LOSE}: its mover went silent). Its files without a final result go back to
     * PENDING ({@link FileTransition#GIVE_BACK}), keeping their acknowledged ranges, not before
     * {@code notBefore}.
     *
     * @return the chunk's task, or null if the chunk had ended already (nothing changed)
     */
    public UUID endChunk(long chunkId, ChunkTransition end, Instant notBefore) {
        if (jdbc.update(
                        "update chunk set state = ?, bytes_in_flight = 0 where id = ? and state = ?",
                        end.to().name(),
                        chunkId,
                        end.from().name())
                == 0) {
            return null;
        }
        List<UUID> task = jdbc.queryForList("select task_id from chunk where id = ?", UUID.class, chunkId);
        if (task.isEmpty()) {
            return null;
        }
        // through the (task_id, state) index: its ACTIVE files are a few chunks' worth. transfer_file
        // has no index on chunk_id: keeping one cost three index writes per file (at its insert and
        // its dispatch), a quarter of the rows' writes and of the commits' work
        jdbc.update(
                "update transfer_file set state = ?, chunk_id = null, next_attempt_time = ?"
                        + " where task_id = ? and state = ? and chunk_id = ?",
                FileTransition.GIVE_BACK.to().name(),
                Sql.time(notBefore),
                task.get(0),
                FileTransition.GIVE_BACK.from().name(),
                chunkId);
        return task.get(0);
    }

    /**
     * Ends the active chunks of a task that ended ({@link ChunkTransition#FINISH}); their files
     * stay as they are.
     */
    public void endChunksOf(UUID taskId) {
        jdbc.update(
                "update chunk set state = ?, bytes_in_flight = 0 where task_id = ? and state = ?",
                ChunkTransition.FINISH.to().name(),
                taskId,
                ChunkTransition.FINISH.from().name());
    }

    /** @return ids of the task's active chunks */
    public List<Long> activeChunkIds(UUID taskId) {
        return jdbc.queryForList("select id from chunk where task_id = ? and state = 'ACTIVE'", Long.class, taskId);
    }

    /** @return the chunk's files that are still ACTIVE in it (a view for tests and tools) */
    public List<Long> activeFiles(long chunkId) {
        return new ArrayList<>(jdbc.queryForList(
                "select f.id from chunk c join transfer_file f on f.task_id = c.task_id and f.state = ?"
                        + " and f.chunk_id = c.id where c.id = ?",
                Long.class,
                ACTIVE,
                chunkId));
    }

    // ---- the movers' results --------------------------------------------------------------------

    /**
     * Any result is a heartbeat of its chunk: an ACTIVE chunk's {@code heartbeat_time} becomes
     * {@code now}.
     *
     * @param chunkIds the chunks heard from
     */
    public void heartbeats(List<Long> chunkIds, Instant now) {
        jdbc.batchUpdate(
                "update chunk set heartbeat_time = ? where id = ? and state = 'ACTIVE'",
                chunkIds,
                500,
                (ps, chunkId) -> {
                    ps.setTimestamp(1, Sql.time(now));
                    ps.setLong(2, chunkId);
                });
    }

    /**
     * What each destination of a multicast file held at its last fault, kept while it waits for its
     * next chunk ({@link TaskStore#destinationsInFlight}).
     *
     * @param fileId the file
     * @param destinations {@code bytes/held,...}, the first destination first
     */
    public void destinationsHeld(long fileId, String destinations) {
        jdbc.update("update transfer_file set destinations_held = ? where id = ?", destinations, fileId);
    }

    /**
     * A mover's progress: the bytes of the files it moves now, per ACTIVE chunk.
     *
     * @param progress one report per chunk
     */
    public void progress(List<ChunkProgress> progress) {
        jdbc.batchUpdate(
                "update chunk set bytes_in_flight = ?, mover = ?, destinations_in_flight = ? where id = ? and"
                        + " state = 'ACTIVE'",
                progress,
                500,
                (ps, report) -> {
                    ps.setLong(1, report.bytesInFlight());
                    ps.setString(2, report.mover());
                    ps.setString(3, report.destinationsInFlight());
                    ps.setLong(4, report.chunkId());
                });
    }

    /**
     * Restart markers: the ranges the destination acknowledged, kept on an ACTIVE file of the
     * marker's chunk unless it already holds more.
     *
     * @param markers one marker per file (the largest)
     */
    public void markers(List<FileMarker> markers) {
        jdbc.batchUpdate(
                "update transfer_file set acknowledged = ?, bytes_acknowledged = ?"
                        + " where id = ? and chunk_id = ? and state = 'ACTIVE' and bytes_acknowledged <= ?",
                markers,
                500,
                (ps, marker) -> {
                    ps.setString(1, marker.acknowledged());
                    ps.setLong(2, marker.bytesAcknowledged());
                    ps.setLong(3, marker.fileId());
                    ps.setLong(4, marker.chunkId());
                    ps.setLong(5, marker.bytesAcknowledged());
                });
    }

    /**
     * {@link FileTransition#ARRIVE}: files the destination confirmed whole (its acknowledged ranges
     * cleared, the verified checksum kept, the size the one that arrived: a source that changed
     * while it was read is sent again with its new size, shown in {@code successful_transfers}).
     *
     * @param arrivals the files
     * @return per arrival, whether this call moved it (false: applied before, or the file left
     *     that chunk)
     */
    public boolean[] arrived(List<FileArrival> arrivals, Instant now) {
        int[][] counts = jdbc.batchUpdate(
                "update transfer_file set state = ?, completion_time = ?, acknowledged = null, bytes_acknowledged = 0,"
                        + " checksum = ?, size_bytes = ? where id = ? and chunk_id = ? and state = ?",
                arrivals,
                500,
                (ps, arrival) -> {
                    ps.setString(1, FileTransition.ARRIVE.to().name());
                    ps.setTimestamp(2, Sql.time(now));
                    ps.setString(3, Sql.cut(arrival.checksum(), 160));
                    ps.setLong(4, arrival.bytes());
                    ps.setLong(5, arrival.fileId());
                    ps.setLong(6, arrival.chunkId());
                    ps.setString(7, FileTransition.ARRIVE.from().name());
                });
        boolean[] moved = new boolean[arrivals.size()];
        int index = 0;
        for (int[] batch : counts) {
            for (int count : batch) {
                moved[index++] = count > 0;
            }
        }
        return moved;
    }

    /**
     * A fault of one attempt at a file: {@link FileTransition#RETRY_IN_CHUNK} (the mover tries
     * again), {@link FileTransition#GIVE_BACK} (after {@code nextAttempt}),
     * {@link FileTransition#FAIL} or {@link FileTransition#SKIP}. Applied only to the attempt's
     * ACTIVE file in the fault's chunk, and only once per attempt.
     *
     * @param fault the attempt and its fault
     * @param transition what becomes of the file
     * @param nextAttempt for GIVE_BACK: not before this time; else null
     * @return true if this call changed the file
     */
    public boolean fault(FileFault fault, FileTransition transition, Instant nextAttempt, Instant now) {
        boolean ends = transition != FileTransition.RETRY_IN_CHUNK;
        boolean final_ = transition == FileTransition.FAIL || transition == FileTransition.SKIP;
        return jdbc.update(
                        "update transfer_file set attempts = ?, fault_code = ?, fault_description = ?, acknowledged = ?,"
                                + " bytes_acknowledged = ?, state = ?, chunk_id = ?, next_attempt_time = ?,"
                                + " completion_time = ? where id = ? and chunk_id = ? and state = ? and attempts < ?",
                        fault.attempt(),
                        fault.code(),
                        Sql.cut(fault.description(), 2000),
                        fault.acknowledged(),
                        fault.bytesAcknowledged(),
                        transition.to().name(),
                        ends ? null : fault.chunkId(),
                        Sql.time(nextAttempt),
                        final_ ? Sql.time(now) : null,
                        fault.fileId(),
                        fault.chunkId(),
                        transition.from().name(),
                        fault.attempt())
                > 0;
    }
}
