package org.ferry.scheduler;

import java.time.Clock;
import org.ferry.mover.access.EndpointSessions;
import org.ferry.mover.access.IdleSessionPairs;
import org.ferry.scheduler.optimize.OptimizerProperties;
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
     * @return the logged-in session pairs a task's planning and the embedded mover's lanes give back
     *     and reuse (closed with the context)
     */
    @Bean(destroyMethod = "close")
    public IdleSessionPairs idleSessionPairs(EndpointSessions sessions) {
        return new IdleSessionPairs(sessions, Clock.systemUTC());
    }
}
