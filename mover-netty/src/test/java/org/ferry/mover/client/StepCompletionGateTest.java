package org.ferry.mover.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.channel.embedded.EmbeddedChannel;
import java.io.EOFException;
import org.ferry.mover.protocol.FtpReply;
import org.junit.jupiter.api.Test;

/** When a pipelined batch's session thread is woken: {@link StepCompletionGate} behind {@link ReplyQueue}s. */
class StepCompletionGateTest {

    private static FtpReply reply(int code) {
        return FtpReply.of(code, "text");
    }

    private static boolean woken(Wakeup wakeup) throws Exception {
        return wakeup.await(0);
    }

    @Test
    void wakesOnceBothSidesAnsweredTheStepsAskedForNotForEachReply() throws Exception {
        StepCompletionGate gate = new StepCompletionGate();
        ReplyQueue source = new ReplyQueue();
        ReplyQueue sink = new ReplyQueue();
        EmbeddedChannel sourceChannel = new EmbeddedChannel(source);
        EmbeddedChannel sinkChannel = new EmbeddedChannel(sink);
        Wakeup wakeup = new Wakeup();
        source.wakeup(wakeup, gate.source());
        sink.wakeup(wakeup, gate.sink());
        assertThat(gate.wakeAt(2)).isFalse();

        sourceChannel.writeInbound(reply(150), reply(226), reply(150), reply(226));
        sinkChannel.writeInbound(reply(150), reply(226));
        assertThat(woken(wakeup))
                .as("one step answered by both sides of two asked for")
                .isFalse();
        sinkChannel.writeInbound(reply(150), reply(112), reply(226));
        assertThat(woken(wakeup)).as("both sides answered two steps").isTrue();
        assertThat(gate.completed()).isEqualTo(2);
        // the replies all wait in the queues for the session thread
        assertThat(sink.poll(0).code()).isEqualTo(150);
        assertThat(gate.wakeAt(2)).as("already reached: no wait").isTrue();
    }

    @Test
    void aRefusalOrAClosedConnectionWakesAtOnce() throws Exception {
        StepCompletionGate gate = new StepCompletionGate();
        ReplyQueue source = new ReplyQueue();
        ReplyQueue sink = new ReplyQueue();
        EmbeddedChannel sourceChannel = new EmbeddedChannel(source);
        EmbeddedChannel sinkChannel = new EmbeddedChannel(sink);
        Wakeup wakeup = new Wakeup();
        source.wakeup(wakeup, gate.source());
        sink.wakeup(wakeup, gate.sink());
        gate.wakeAt(10);

        sinkChannel.writeInbound(reply(553));
        assertThat(woken(wakeup)).as("the destination refused a step").isTrue();

        sourceChannel.close();
        assertThat(woken(wakeup)).as("the source's connection closed").isTrue();
        assertThatThrownBy(() -> source.poll(0))
                .isInstanceOf(java.io.IOException.class)
                .hasCauseInstanceOf(EOFException.class);
    }
}
