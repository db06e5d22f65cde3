package org.ferry.scheduler.preview;

import java.io.IOException;
import java.net.ConnectException;
import java.util.ArrayList;
import java.util.List;
import org.ferry.api.command.DryRun;
import org.ferry.api.command.TransferSubmission;
import org.ferry.api.credential.ActivationRequiredException;
import org.ferry.api.credential.EndpointAccessService;
import org.ferry.api.domain.Endpoint;
import org.ferry.api.domain.EventCode;
import org.ferry.api.domain.TransferItem;
import org.ferry.api.error.ConflictException;
import org.ferry.api.error.EndpointException;
import org.ferry.api.error.InvalidRequestException;
import org.ferry.api.error.NotFoundException;
import org.ferry.api.service.TransferPreview;
import org.ferry.api.store.PlannedFile;
import org.ferry.mover.access.EndpointAccess;
import org.ferry.mover.access.EndpointSessions;
import org.ferry.mover.client.GridFtpSession;
import org.ferry.mover.data.security.ProtectionLevel;
import org.ferry.scheduler.plan.MirrorWalk;
import org.ferry.scheduler.plan.PlanSink;
import org.ferry.scheduler.plan.PlanTotals;
import org.ferry.scheduler.plan.PlanningException;
import org.ferry.scheduler.plan.TaskPlanner;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * {@code POST /transfer/dry_run}: runs the task's {@link TaskPlanner} (sync level, filter rules)
 * and, with {@code delete_destination_extra}, a {@link MirrorWalk} over both endpoints in dry-run
 * mode, collecting what each would do. Neither makes a directory nor deletes anything. The
 * mirror's listing assumes the copy succeeded: it compares the destination as it is with the
 * source, which is what the task's deletion will do after its copy.
 */
@Component
public class DryRunPlanner implements TransferPreview {

    private final EndpointAccessService accesses;
    private final EndpointSessions sessions;
    private final int maxEntries;

    /**
     * @param accesses the caller's access to each endpoint (its login, or its activation)
     * @param sessions opens the sessions
     * @param maxEntries entries listed in {@code DATA} at most ({@code ferry.transfer.dry-run-max-entries},
     *     default 10000); the counters always cover everything
     */
    public DryRunPlanner(
            EndpointAccessService accesses,
            EndpointSessions sessions,
            @Value("${ferry.transfer.dry-run-max-entries:10000}") int maxEntries) {
        this.accesses = accesses;
        this.sessions = sessions;
        this.maxEntries = maxEntries;
    }

    @Override
    public DryRun preview(Plan plan) {
        EndpointAccess source = access(plan.user(), plan.source(), "source_endpoint");
        EndpointAccess destination = access(plan.user(), plan.destination(), "destination_endpoint");
        TransferSubmission.Options options = plan.transfer().options();
        List<TransferItem> items = new ArrayList<>();
        for (TransferSubmission.Item item : plan.transfer().items()) {
            items.add(
                    new TransferItem(null, items.size(), item.sourcePath(), item.destinationPath(), item.recursive()));
        }
        Collector collector = new Collector();
        try (GridFtpSession from = sessions.open(source, ProtectionLevel.CLEAR);
                GridFtpSession to = sessions.open(destination, ProtectionLevel.CLEAR)) {
            TaskPlanner planner = new TaskPlanner(
                    from,
                    to,
                    options.syncLevel(),
                    options.skipSourceErrors(),
                    options.filterRules(),
                    true,
                    options.checksumAlgorithm().name(),
                    collector);
            PlanTotals totals = planner.plan(items);
            List<String> further = reach(plan);
            long deletions = 0;
            if (options.deleteDestinationExtra() && totals.skippedErrors() == 0) {
                deletions = new MirrorWalk(from, to, options.filterRules(), true, () -> false, collector::deleted)
                        .mirror(items);
            }
            return new DryRun(
                    plan.source().getCanonicalName(),
                    plan.destination().getCanonicalName(),
                    totals.toMove(),
                    collector.bytesToCopy,
                    totals.filesSkipped(),
                    totals.excluded(),
                    totals.skippedErrors(),
                    deletions,
                    collector.truncated,
                    collector.entries,
                    further);
        } catch (PlanningException e) {
            if (e.code() == EventCode.FILE_NOT_FOUND) {
                throw new NotFoundException("DATA", e.getMessage());
            }
            throw new InvalidRequestException("DATA", e.getMessage());
        } catch (ConnectException e) {
            throw new EndpointException("Cannot connect to an endpoint: " + e.getMessage());
        } catch (IOException e) {
            throw new EndpointException("GridFTP failure while planning the dry run: " + e.getMessage());
        }
    }

    /**
     * A multicast transfer's further destinations: each must let the caller log in, as the task's
     * chunks will (a dry run that says nothing of three of four destinations would mislead).
     *
     * @return their canonical names, in order
     * @throws IOException if one cannot be reached
     */
    private List<String> reach(Plan plan) throws IOException {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < plan.additional().size(); i++) {
            Endpoint further = plan.additional().get(i);
            EndpointAccess access = access(plan.user(), further, "ferry_additional_destination_endpoints[" + i + "]");
            try (GridFtpSession session = sessions.open(access, ProtectionLevel.CLEAR)) {
                if (!session.isOpen()) {
                    throw new IOException("the session closed after its login");
                }
            } catch (IOException e) {
                throw new IOException(further.getCanonicalName() + ": " + e.getMessage(), e);
            }
            names.add(further.getCanonicalName());
        }
        return names;
    }

    private EndpointAccess access(String user, Endpoint endpoint, String field) {
        try {
            return accesses.access(user, endpoint);
        } catch (ActivationRequiredException e) {
            throw new ConflictException(ActivationRequiredException.CODE, field, e.getMessage());
        } catch (IllegalArgumentException e) {
            throw new EndpointException("Endpoint " + endpoint.getCanonicalName() + ": " + e.getMessage());
        }
    }

    /** Gathers the entries, up to the limit. */
    private final class Collector implements PlanSink {
        final List<DryRun.Entry> entries = new ArrayList<>();
        long bytesToCopy;
        boolean truncated;

        @Override
        public void add(PlannedFile file) {
            if (file.skippedCode() == null) {
                bytesToCopy += file.sizeBytes();
                entry("copy", "file", file.sourcePath(), file.destinationPath(), file.sizeBytes());
            } else {
                entry("skip_error", "file", file.sourcePath(), file.destinationPath(), 0);
            }
        }

        @Override
        public void current(String sourcePath, String destinationPath, long sizeBytes) {
            entry("skip", "file", sourcePath, destinationPath, sizeBytes);
        }

        @Override
        public void excluded(String sourcePath, String destinationPath, boolean directory) {
            entry("exclude", directory ? "dir" : "file", sourcePath, destinationPath, 0);
        }

        void deleted(String path, boolean directory) {
            entry("delete", directory ? "dir" : "file", null, path, 0);
        }

        private void entry(String action, String type, String sourcePath, String destinationPath, long size) {
            if (entries.size() >= maxEntries) {
                truncated = true;
                return;
            }
            entries.add(new DryRun.Entry(action, type, sourcePath, destinationPath, size));
        }
    }
}
