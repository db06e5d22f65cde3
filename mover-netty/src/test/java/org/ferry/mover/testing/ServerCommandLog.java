package org.ferry.mover.testing;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import java.util.ArrayList;
import java.util.List;
import org.ferry.mover.server.pi.ControlChannelHandler;
import org.slf4j.LoggerFactory;

/**
 * The commands Ferry's in-JVM servers receive (after MIC/ENC unwrapping), as their control channel
 * handler logs them at DEBUG ({@code <- COMMAND}): what a test checks to know which DCAU and PROT
 * a client really sent. Open it before the sessions start; close it after.
 */
public final class ServerCommandLog implements AutoCloseable {

    private final Logger logger = (Logger) LoggerFactory.getLogger(ControlChannelHandler.class);
    private final Level levelBefore = logger.getLevel();
    private final List<String> commands = new ArrayList<>();
    private final AppenderBase<ILoggingEvent> appender = new AppenderBase<>() {
        @Override
        protected void append(ILoggingEvent event) {
            String message = event.getFormattedMessage();
            int arrow = message.indexOf(" <- ");
            if (arrow >= 0) {
                synchronized (commands) {
                    commands.add(message.substring(arrow + 4));
                }
            }
        }
    };

    private ServerCommandLog() {}

    /** @return a log capturing from now on */
    public static ServerCommandLog open() {
        ServerCommandLog log = new ServerCommandLog();
        log.appender.setName("server-command-log");
        log.appender.setContext(log.logger.getLoggerContext());
        log.appender.start();
        log.logger.addAppender(log.appender);
        log.logger.setLevel(Level.DEBUG);
        log.logger.setAdditive(false); // the DEBUG lines are for this log, not the console
        return log;
    }

    /** @return the commands received so far, in order */
    public List<String> commands() {
        synchronized (commands) {
            return List.copyOf(commands);
        }
    }

    @Override
    public void close() {
        logger.setLevel(levelBefore);
        logger.setAdditive(true);
        logger.detachAppender(appender);
        appender.stop();
    }
}
