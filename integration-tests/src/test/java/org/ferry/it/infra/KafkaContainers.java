package org.ferry.it.infra;

import org.ferry.testing.ContainerEngine;
import org.testcontainers.kafka.KafkaContainer;

/**
 * A real Kafka 4.4 broker (KRaft: broker and controller in one process) in a container:
 * Testcontainers' {@link KafkaContainer} on the image {@link ContainerEngine} chooses
 * ({@code ferry-test/kafka:4.4.0} built here, or {@code apache/kafka:4.4.0}), its client port
 * published on 127.0.0.1 at a port that survives a restart of the container, and advertised to
 * clients as {@code 127.0.0.1:PORT}: ferry-server and the ferry-mover processes reach it there.
 * Settings from real-parts-recipes.md: a short broker session timeout (a restart after kill -9
 * takes seconds, not twelve), one partition per topic unless asked, a small heap and log-cleaner
 * buffer.
 */
public final class KafkaContainers {

    private KafkaContainers() {}

    /** @return a broker container, not started */
    public static KafkaContainer create() {
        return ContainerEngine.onLoopback(
                new LoopbackKafkaContainer()
                        .withEnv("KAFKA_BROKER_SESSION_TIMEOUT_MS", "2000")
                        .withEnv("KAFKA_BROKER_HEARTBEAT_INTERVAL_MS", "500")
                        .withEnv("KAFKA_NUM_PARTITIONS", "1")
                        .withEnv("KAFKA_SHARE_COORDINATOR_STATE_TOPIC_REPLICATION_FACTOR", "1")
                        .withEnv("KAFKA_SHARE_COORDINATOR_STATE_TOPIC_MIN_ISR", "1")
                        .withEnv("KAFKA_LOG_CLEANER_DEDUPE_BUFFER_SIZE", "8388608")
                        .withEnv("KAFKA_HEAP_OPTS", "-Xmx256m"),
                9092);
    }

    /** Advertises 127.0.0.1, where the port is published, rather than the engine's host name. */
    private static final class LoopbackKafkaContainer extends KafkaContainer {

        LoopbackKafkaContainer() {
            super(ContainerEngine.image("ferry-test/kafka:4.4.0", "apache/kafka:4.4.0"));
        }

        @Override
        public String getBootstrapServers() {
            return "127.0.0.1:" + getMappedPort(9092);
        }
    }
}
