package org.ferry.scheduler;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Configuration;

/** Binds {@link TransferProperties}. */
@Configuration
@EnableConfigurationProperties(TransferProperties.class)
public class SchedulerConfiguration {}
