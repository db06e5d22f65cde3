package org.ferry.scheduler;

import org.ferry.scheduler.optimize.OptimizerProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Configuration;

/** Binds {@link TransferProperties} and {@link OptimizerProperties}. */
@Configuration
@EnableConfigurationProperties({TransferProperties.class, OptimizerProperties.class})
public class SchedulerConfiguration {}
