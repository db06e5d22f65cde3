package org.ferry.api.domain;

/**
 * The end of a mirror's deletion step (column {@code task.mirror_state}): null while a task that
 * asked for {@code delete_destination_extra} has not deleted its destination's extras yet (it
 * must not end before), and for a task that did not ask.
 */
public enum MirrorState {
    /** The destination's extras were deleted. */
    DONE,
    /** Nothing was deleted: source paths were skipped for errors, so their copies stay. */
    SKIPPED
}
