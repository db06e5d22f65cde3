package org.ferry.scheduler.queue;

import java.time.Duration;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.springframework.stereotype.Component;

/** The embedded work queue: a FIFO in this JVM (chunks are lost on a restart; tasks are re-planned). */
@Component
public class InProcessWorkQueue implements WorkQueue {

    private final LinkedBlockingQueue<TransferChunk> chunks = new LinkedBlockingQueue<>();

    @Override
    public void submit(TransferChunk chunk) {
        chunks.add(chunk);
    }

    @Override
    public TransferChunk poll(Duration timeout) throws InterruptedException {
        return chunks.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }
}
