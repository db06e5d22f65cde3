package org.ferry.scheduler.timer;

import java.sql.DatabaseMetaData;
import java.time.Duration;
import java.util.Locale;
import java.util.Properties;
import javax.sql.DataSource;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.support.JdbcUtils;
import org.springframework.jdbc.support.MetaDataAccessException;
import org.springframework.scheduling.quartz.SchedulerFactoryBean;
import org.springframework.scheduling.quartz.SpringBeanJobFactory;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * Quartz for timers, on Spring's {@link SchedulerFactoryBean}: the JDBC job store in Ferry's own
 * database (its {@code QRTZ_*} tables come from the Flyway migration {@code V10}, one flavour per
 * database), joining Spring's transactions, and clustered, so that several ferry-server instances
 * on one PostgreSQL fire each tick on exactly one of them and take over the ticks of an instance
 * that stopped ({@code org.quartz.jobStore.isClustered}; row locks in {@code QRTZ_LOCKS}).
 *
 * <p>Settings: {@code ferry.timers.misfire-threshold} (default 10m): a tick later than this (the
 * server was down longer) is handled by the trigger's misfire policy (an interval timer goes on
 * with its next tick, a cron timer runs once at once); a shorter outage fires the ticks it missed,
 * each recorded. {@code ferry.timers.cluster-checkin-interval} (default 5s): how soon another
 * instance notices a dead one. {@code ferry.timers.threads} (default 2).
 */
@Configuration(proxyBeanMethods = false)
public class TimerQuartzConfiguration {

    /**
     * @param dataSource Ferry's database
     * @param transactionManager Ferry's transactions (the job store joins them)
     * @param context makes jobs with their dependencies injected
     * @param misfireThreshold see the class comment
     * @param checkinInterval see the class comment
     * @param threads Quartz worker threads
     * @return the scheduler factory
     * @throws MetaDataAccessException if the database cannot be asked what it is
     */
    @Bean
    public SchedulerFactoryBean ferryTimerScheduler(
            DataSource dataSource,
            PlatformTransactionManager transactionManager,
            ApplicationContext context,
            @Value("${ferry.timers.misfire-threshold:10m}") Duration misfireThreshold,
            @Value("${ferry.timers.cluster-checkin-interval:5s}") Duration checkinInterval,
            @Value("${ferry.timers.threads:2}") int threads)
            throws MetaDataAccessException {
        SchedulerFactoryBean factory = new SchedulerFactoryBean();
        factory.setSchedulerName("ferry-timers");
        factory.setDataSource(dataSource);
        factory.setTransactionManager(transactionManager);
        SpringBeanJobFactory jobs = new SpringBeanJobFactory();
        jobs.setApplicationContext(context);
        factory.setJobFactory(jobs);
        factory.setOverwriteExistingJobs(true);
        factory.setWaitForJobsToCompleteOnShutdown(true);
        Properties quartz = new Properties();
        quartz.setProperty("org.quartz.scheduler.instanceId", "AUTO");
        quartz.setProperty("org.quartz.scheduler.skipUpdateCheck", "true");
        quartz.setProperty("org.quartz.jobStore.isClustered", "true");
        quartz.setProperty("org.quartz.jobStore.clusterCheckinInterval", String.valueOf(checkinInterval.toMillis()));
        quartz.setProperty("org.quartz.jobStore.misfireThreshold", String.valueOf(misfireThreshold.toMillis()));
        quartz.setProperty("org.quartz.jobStore.acquireTriggersWithinLock", "true");
        quartz.setProperty("org.quartz.jobStore.driverDelegateClass", delegate(dataSource));
        quartz.setProperty("org.quartz.threadPool.threadCount", String.valueOf(threads));
        factory.setQuartzProperties(quartz);
        return factory;
    }

    /** PostgreSQL keeps job data in {@code bytea}, which needs its own delegate; H2 the standard one. */
    private static String delegate(DataSource dataSource) throws MetaDataAccessException {
        String product = JdbcUtils.extractDatabaseMetaData(dataSource, DatabaseMetaData::getDatabaseProductName);
        return product != null && product.toLowerCase(Locale.ROOT).contains("postgres")
                ? "org.quartz.impl.jdbcjobstore.PostgreSQLDelegate"
                : "org.quartz.impl.jdbcjobstore.StdJDBCDelegate";
    }
}
