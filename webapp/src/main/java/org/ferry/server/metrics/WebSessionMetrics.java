package org.ferry.server.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import jakarta.servlet.http.HttpSessionEvent;
import jakarta.servlet.http.HttpSessionListener;
import java.util.concurrent.atomic.AtomicInteger;
import org.ferry.server.pages.TaskStreams;
import org.springframework.stereotype.Component;

/**
 * This instance's active sessions: web page sessions ({@code ferry_web_sessions_active}, signed in
 * or on their way; counted by the servlet container's session events, embedded or WAR) and the
 * task pages watching live ({@code ferry_live_views}, open server-sent event streams).
 */
@Component
public class WebSessionMetrics implements HttpSessionListener, MeterBinder {

    private final AtomicInteger sessions = new AtomicInteger();
    private final TaskStreams streams;

    /** @param streams the live task views */
    public WebSessionMetrics(TaskStreams streams) {
        this.streams = streams;
    }

    @Override
    public void sessionCreated(HttpSessionEvent event) {
        sessions.incrementAndGet();
    }

    @Override
    public void sessionDestroyed(HttpSessionEvent event) {
        sessions.decrementAndGet();
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        Gauge.builder("ferry.web.sessions.active", sessions, AtomicInteger::get)
                .description("Web page sessions open on this instance")
                .register(registry);
        Gauge.builder("ferry.live.views", streams, TaskStreams::openStreams)
                .description("Task pages receiving live progress from this instance")
                .register(registry);
    }
}
