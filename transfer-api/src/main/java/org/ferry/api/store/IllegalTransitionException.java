package org.ferry.api.store;

/** A state change the transition tables do not list ({@link TaskTransition}, {@link FileTransition}, {@link ChunkTransition}). */
public class IllegalTransitionException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    /**
     * @param what the row kind ({@code task}, {@code file}, {@code chunk})
     * @param from the state it is in
     * @param to the state asked for
     */
    public IllegalTransitionException(String what, Enum<?> from, Enum<?> to) {
        super("A " + what + " cannot go from " + from + " to " + to);
    }
}
