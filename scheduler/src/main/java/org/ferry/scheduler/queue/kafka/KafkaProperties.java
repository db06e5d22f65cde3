package org.ferry.scheduler.queue.kafka;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The Kafka work queue's settings ({@code ferry.kafka.*}), used when {@code ferry.queue.type=kafka}.
 *
 * @param bootstrapServers the brokers, {@code host:port[,host:port]}
 * @param topicPrefix topics {@code PREFIX.chunks}, {@code PREFIX.results}, {@code PREFIX.control}
 *     (ferry-mover's {@code --topic-prefix})
 * @param group the schedulers' consumer group on the results topic
 * @param chunkPartitions partitions of the chunks topic when Ferry creates it: at least the number
 *     of movers (each partition is read by one mover of the group)
 * @param replicationFactor replication of the topics Ferry creates (3 on a production cluster)
 */
@ConfigurationProperties(prefix = "ferry.kafka")
public record KafkaProperties(
        @DefaultValue("127.0.0.1:9092") String bootstrapServers,
        @DefaultValue("ferry") String topicPrefix,
        @DefaultValue("ferry-schedulers") String group,
        @DefaultValue("12") int chunkPartitions,
        @DefaultValue("1") short replicationFactor) {

    /** @return the chunks topic */
    public String chunksTopic() {
        return topicPrefix + ".chunks";
    }

    /** @return the results topic */
    public String resultsTopic() {
        return topicPrefix + ".results";
    }

    /** @return the control topic */
    public String controlTopic() {
        return topicPrefix + ".control";
    }
}
