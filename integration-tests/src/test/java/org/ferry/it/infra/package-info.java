/**
 * Real infrastructure for tests, reusable by any test class: a PostgreSQL server
 * ({@link org.ferry.it.infra.PostgresServer}), a Kafka broker as a separate process that a test
 * can stop, kill -9 and restart ({@link org.ferry.it.infra.KafkaBroker}), and a fault-injecting
 * TCP proxy in front of an FTP server that also carries its passive data connections
 * ({@link org.ferry.it.infra.FtpFaultProxy}).
 */
package org.ferry.it.infra;
