package org.ferry.mover.server.pi;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * An ABOR races the start of a transfer in every order, played by the test itself (no threads,
 * no timing): the transfer ends cancelled each time. The middle case is the race the striped path
 * lost before it shared this start with the plain one.
 */
class TransferStartTest {

    @Test
    void anAborThatCancelsThePlaceholderBeforeTheStartCancelsTheTransfer() {
        ControlSession session = new ControlSession();
        CompletableFuture<Long> transfer = new CompletableFuture<>();
        TransferStart.begin(session, () -> session.activeTransfer().cancel(true), () -> transfer);
        assertThat(transfer).isCancelled();
    }

    @Test
    void anAborThatReadThePlaceholderAndCancelsItAfterTheSwapCancelsTheTransfer() {
        ControlSession session = new ControlSession();
        CompletableFuture<Long> transfer = new CompletableFuture<>();
        AtomicReference<CompletableFuture<?>> readByAbor = new AtomicReference<>();
        CompletableFuture<Long> started = TransferStart.begin(session, () -> {}, () -> {
            readByAbor.set(session.activeTransfer()); // the ABOR reads the placeholder...
            return transfer;
        });
        assertThat(session.activeTransfer()).isSameAs(started).isSameAs(transfer);
        assertThat(transfer).isNotCancelled();
        readByAbor.get().cancel(true); // ...and cancels it only after the swap
        assertThat(transfer).isCancelled();
    }

    @Test
    void anAborAfterTheStartCancelsTheTransferDirectly() {
        ControlSession session = new ControlSession();
        CompletableFuture<Long> transfer = new CompletableFuture<>();
        TransferStart.begin(session, () -> {}, () -> transfer);
        session.activeTransfer().cancel(true);
        assertThat(transfer).isCancelled();
    }

    @Test
    void thePreliminaryReplyGoesOutWithThePlaceholderInPlace() {
        ControlSession session = new ControlSession();
        List<Object> seenAtReply = new ArrayList<>();
        TransferStart.begin(session, () -> seenAtReply.add(session.activeTransfer()), CompletableFuture::new);
        assertThat(seenAtReply).hasSize(1).doesNotContainNull();
    }
}
