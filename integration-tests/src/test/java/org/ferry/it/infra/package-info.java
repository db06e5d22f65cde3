/**
 * Real infrastructure for tests, reusable by any test class: a Kafka broker in a container
 * ({@link org.ferry.it.infra.KafkaContainers}; PostgreSQL is {@code org.ferry.testing.PostgresContainers}
 * of webapp's test-jar), faults injected into a running container through the engine
 * ({@link org.ferry.it.infra.ContainerFaults}: kill, pause, network cut), and a fault-injecting
 * TCP proxy in front of an FTP server that also carries its passive data connections
 * ({@link org.ferry.it.infra.FtpFaultProxy}).
 */
package org.ferry.it.infra;
