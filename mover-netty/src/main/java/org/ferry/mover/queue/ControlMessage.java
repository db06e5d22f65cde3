package org.ferry.mover.queue;

import java.util.UUID;

/**
 * What the scheduler tells every mover at once, on the control topic: stop the chunks of a task
 * (cancelled, expired, failed) or one chunk (taken away from a mover thought lost). A mover closes
 * the chunk's sessions, which aborts its transfers in flight.
 *
 * @param v message version
 * @param type what to stop
 * @param taskId {@link Type#CANCEL_TASK}: the task, else null
 * @param chunkId {@link Type#CANCEL_CHUNK}: the chunk, else 0
 */
public record ControlMessage(int v, Type type, UUID taskId, long chunkId) {

    /** Control kinds. */
    public enum Type {
        /** Stop every chunk of the task. */
        CANCEL_TASK,
        /** Stop one chunk. */
        CANCEL_CHUNK,
        /** Nothing: the scheduler checks that the transport delivers. */
        PING
    }
}
