package org.ferry.scheduler.execution;

import java.io.IOException;
import org.ferry.mover.client.GridFtpClient;
import org.ferry.mover.client.GridFtpSession;

/**
 * One lane's control channels: a source session and a destination session, opened on first use
 * and reopened after a fault (a failed transfer may leave either channel unusable).
 */
final class SessionPair implements AutoCloseable {

    private final GridFtpClient client;
    private final TaskExecution execution;
    private GridFtpSession source;
    private GridFtpSession destination;

    SessionPair(GridFtpClient client, TaskExecution execution) {
        this.client = client;
        this.execution = execution;
    }

    /** @return the logged-in source session */
    GridFtpSession source() throws IOException {
        if (source == null) {
            source = execution.track(client.open(execution.source().url()));
        }
        return source;
    }

    /** @return the logged-in destination session */
    GridFtpSession destination() throws IOException {
        if (destination == null) {
            destination = execution.track(client.open(execution.destination().url()));
        }
        return destination;
    }

    /** Closes both sessions; the next use opens new ones. */
    @Override
    public void close() {
        execution.release(source);
        execution.release(destination);
        source = null;
        destination = null;
    }
}
