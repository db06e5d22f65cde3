package org.ferry.mover.testing;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.util.ResourceLeakDetector;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.LoggerFactory;

/**
 * Collects what Netty's {@link ResourceLeakDetector} reports while it is open, so that a test can
 * fail on a leaked {@link ByteBuf} instead of a log line nobody reads. The detector (PARANOID in
 * surefire's configuration) reports a leak only once the leaked buffer has been garbage collected
 * and a later allocation polls its reference queue, so {@link #assertNoLeaks()} collects garbage
 * and allocates before it looks. One instance per test; not thread-safe to open twice.
 */
public final class LeakCapture implements AutoCloseable {

    private final Logger logger = (Logger) LoggerFactory.getLogger(ResourceLeakDetector.class);
    private final List<String> reports = new ArrayList<>();
    private final AppenderBase<ILoggingEvent> appender = new AppenderBase<>() {
        @Override
        protected void append(ILoggingEvent event) {
            if (event.getLevel().isGreaterOrEqual(Level.ERROR)) {
                synchronized (reports) {
                    reports.add(event.getFormattedMessage());
                }
            }
        }
    };

    private LeakCapture() {}

    /**
     * Flushes leak reports pending from earlier tests (they go to the log, not to this capture),
     * then starts capturing.
     *
     * @return the open capture
     */
    public static LeakCapture open() {
        pollLeaks();
        LeakCapture capture = new LeakCapture();
        capture.appender.setName("leak-capture");
        capture.appender.setContext(capture.logger.getLoggerContext());
        capture.appender.start();
        capture.logger.addAppender(capture.appender);
        return capture;
    }

    /**
     * Makes the detector report every buffer that became garbage unreleased, then fails if any
     * report arrived since {@link #open()}.
     *
     * @throws AssertionError naming the first leak report
     */
    public void assertNoLeaks() {
        pollLeaks();
        synchronized (reports) {
            if (!reports.isEmpty()) {
                throw new AssertionError(reports.size() + " ByteBuf leak report(s); first: " + reports.get(0));
            }
        }
    }

    /** Stops capturing. */
    @Override
    public void close() {
        logger.detachAppender(appender);
        appender.stop();
    }

    private static void pollLeaks() {
        for (int round = 0; round < 3; round++) {
            System.gc();
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            // Each tracked allocation makes the detector drain its queue of collected buffers.
            for (int i = 0; i < 4; i++) {
                ByteBuf pooled = ByteBufAllocator.DEFAULT.buffer(8);
                pooled.release();
                ByteBuf unpooled = Unpooled.buffer(8);
                unpooled.release();
            }
        }
    }
}
