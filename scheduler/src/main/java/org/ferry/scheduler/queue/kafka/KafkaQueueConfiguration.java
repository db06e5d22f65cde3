package org.ferry.scheduler.queue.kafka;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.ferry.scheduler.TransferProperties;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.config.TopicBuilder;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.core.ProducerFactory;

/**
 * The Kafka work queue's parts ({@code ferry.queue.type=kafka}), Spring for Apache Kafka's: the
 * topics as {@link NewTopic} beans, the admin that creates them, the template chunks and control
 * messages go out through, and the consumer factory of the results' listener container.
 * ferry-mover keeps Kafka's plain clients (it knows no Spring).
 */
@Configuration
@ConditionalOnProperty(name = "ferry.queue.type", havingValue = "kafka")
@EnableConfigurationProperties(KafkaProperties.class)
public class KafkaQueueConfiguration {

    /** @return the chunks topic: keyed by chunk id, one partition per mover at least */
    @Bean
    NewTopic chunksTopic(KafkaProperties kafka) {
        return TopicBuilder.name(kafka.chunksTopic())
                .partitions(kafka.chunkPartitions())
                .replicas(kafka.replicationFactor())
                .build();
    }

    /** @return the results topic the schedulers' group reads */
    @Bean
    NewTopic resultsTopic(KafkaProperties kafka) {
        return TopicBuilder.name(kafka.resultsTopic())
                .partitions(kafka.chunkPartitions())
                .replicas(kafka.replicationFactor())
                .build();
    }

    /** @return the control topic every mover reads: one partition, so cancels keep their order */
    @Bean
    NewTopic controlTopic(KafkaProperties kafka) {
        return TopicBuilder.name(kafka.controlTopic())
                .partitions(1)
                .replicas(kafka.replicationFactor())
                .build();
    }

    /**
     * @return the admin that creates the topics; not at the context's start (the broker may come
     *     later): the work queue creates them when it starts, and again until the broker answers
     */
    @Bean
    KafkaAdmin kafkaAdmin(KafkaProperties kafka) {
        KafkaAdmin admin = new KafkaAdmin(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()));
        admin.setAutoCreate(false);
        admin.setFatalIfBrokerNotAvailable(false);
        return admin;
    }

    /** @return the producers: every send acknowledged by all replicas, idempotent */
    @Bean
    ProducerFactory<String, byte[]> kafkaProducerFactory(KafkaProperties kafka) {
        Map<String, Object> p = new HashMap<>();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        p.put(ProducerConfig.LINGER_MS_CONFIG, "1");
        p.put(ProducerConfig.CLIENT_ID_CONFIG, "ferry-scheduler");
        return new DefaultKafkaProducerFactory<>(p);
    }

    /** @return the template chunks and control messages go out through */
    @Bean
    KafkaTemplate<String, byte[]> kafkaTemplate(ProducerFactory<String, byte[]> producers) {
        return new KafkaTemplate<>(producers);
    }

    /**
     * @return the results consumers: offsets committed by the listener container after each batch
     *     is applied, never automatically
     */
    @Bean
    ConsumerFactory<String, byte[]> kafkaConsumerFactory(KafkaProperties kafka) {
        Map<String, Object> p = new HashMap<>();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "2000");
        p.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, "20");
        p.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, "10000");
        p.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, "2000");
        return new DefaultKafkaConsumerFactory<>(p);
    }

    /** @return the Kafka work queue */
    @Bean
    KafkaWorkQueue kafkaWorkQueue(
            KafkaProperties kafka,
            TransferProperties properties,
            KafkaTemplate<String, byte[]> template,
            ConsumerFactory<String, byte[]> consumers,
            KafkaAdmin admin,
            List<NewTopic> topics) {
        return new KafkaWorkQueue(kafka, properties, template, consumers, admin, topics);
    }
}
