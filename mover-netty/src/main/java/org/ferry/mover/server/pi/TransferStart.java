package org.ferry.mover.server.pi;

import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;
import java.util.function.Supplier;

/**
 * The start of a data transfer that an {@code ABOR} may interrupt at any moment (RFC 959 section
 * 4.1.3: ABOR is answered whatever state the transfer is in), shared by the plain and the striped
 * transfer paths. A placeholder is the session's active transfer from before the preliminary reply
 * (150 or 125) goes out, so that an ABOR sent right after it finds something to cancel; once the
 * transfer has started, a cancel of the placeholder is forwarded to it whenever it comes, before or
 * after the swap (checking {@code isCancelled()} once after the swap misses an ABOR that read the
 * placeholder just before the swap and cancels it just after).
 */
public final class TransferStart {

    private TransferStart() {}

    /**
     * @param session the session whose active transfer this becomes
     * @param preliminaryReply sends 150 or 125; runs after the placeholder is in place
     * @param starter starts the transfer; a {@link RuntimeException} it throws clears the active
     *     transfer and propagates
     * @param <T> the transfer's result
     * @return the running transfer, now the session's active one, cancelled if an ABOR came
     */
    public static <T> CompletableFuture<T> begin(
            ControlSession session, Runnable preliminaryReply, Supplier<CompletableFuture<T>> starter) {
        CompletableFuture<T> placeholder = new CompletableFuture<>();
        session.activeTransfer(placeholder);
        preliminaryReply.run();
        CompletableFuture<T> running;
        try {
            running = starter.get();
        } catch (RuntimeException e) {
            session.activeTransfer(null);
            throw e;
        }
        session.activeTransfer(running);
        placeholder.whenComplete(new ForwardCancel<>(placeholder, running));
        return running;
    }

    /**
     * Cancels the running transfer when the placeholder was cancelled. A class rather than a lambda:
     * one is made per file, and the C1-only JIT allocates a capturing lambda through a method
     * handle (a runtime call).
     */
    private record ForwardCancel<T>(CompletableFuture<T> placeholder, CompletableFuture<T> running)
            implements BiConsumer<T, Throwable> {
        @Override
        public void accept(T value, Throwable error) {
            if (placeholder.isCancelled()) {
                running.cancel(true);
            }
        }
    }
}
