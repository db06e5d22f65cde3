package org.ferry.scheduler;

import java.time.Clock;
import java.time.Duration;
import org.ferry.mover.access.EndpointSessions;
import org.ferry.mover.access.IdleSessionPairs;
import org.ferry.scheduler.optimize.OptimizerProperties;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Binds {@link TransferProperties} and {@link OptimizerProperties}; the session pairs that planning
 * and the embedded mover share.
 */
@Configuration
@EnableConfigurationProperties({TransferProperties.class, OptimizerProperties.class})
public class SchedulerConfiguration {

    /**
     * @param sessions reads GSI credentials' ends
     * @param idleTimeout how long a given-back pair is kept ({@code ferry.transfer.idle-session-timeout},
     *     default 30 s); zero turns reuse off (every planning and lane logs in afresh)
     * @return the logged-in session pairs a task's planning and the embedded mover's lanes give back
     *     and reuse (closed with the context)
     */
    @Bean(destroyMethod = "close")
    public IdleSessionPairs idleSessionPairs(
            EndpointSessions sessions, @Value("${ferry.transfer.idle-session-timeout:30s}") Duration idleTimeout) {
        return new IdleSessionPairs(
                sessions,
                Clock.systemUTC(),
                idleTimeout,
                IdleSessionPairs.DEFAULT_MAX_PER_KEY,
                IdleSessionPairs.DEFAULT_MAX_KEYS);
    }
}
