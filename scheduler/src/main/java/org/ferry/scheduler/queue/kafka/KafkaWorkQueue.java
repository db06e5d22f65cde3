package org.ferry.scheduler.queue.kafka;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.ferry.mover.queue.ChunkMessage;
import org.ferry.mover.queue.ControlMessage;
import org.ferry.mover.queue.MessageCodec;
import org.ferry.mover.queue.ResultMessage;
import org.ferry.scheduler.TransferProperties;
import org.ferry.scheduler.queue.MoverResults;
import org.ferry.scheduler.queue.WorkQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.stereotype.Component;

/**
 * The Kafka work queue ({@code ferry.queue.type=kafka}): chunks go to the chunks topic keyed by
 * chunk id (ferry-mover processes share them as one consumer group), cancels to the control topic
 * (every mover reads it), and the movers' results come back on the results topic, which this
 * instance reads in the schedulers' consumer group and hands to the {@link MoverResults} it was started with; offsets
 * are committed only after the results are in the database (at least once; the applier's guards
 * make a repeat harmless). A PING on the control topic every second tells whether the broker takes
 * messages: while it does not, a mover's silence is not taken as its loss.
 */
@Component
@ConditionalOnProperty(name = "ferry.queue.type", havingValue = "kafka")
@EnableConfigurationProperties(KafkaProperties.class)
public class KafkaWorkQueue implements WorkQueue {

    private static final Logger log = LoggerFactory.getLogger(KafkaWorkQueue.class);
    private static final long PING_MILLIS = 1000;
    private static final long PING_STALE_MILLIS = 3000;

    private final KafkaProperties kafka;
    private final TransferProperties properties;
    private MoverResults applier;
    private final MessageCodec codec = new MessageCodec();
    private KafkaProducer<String, byte[]> producer;
    private KafkaConsumer<String, byte[]> results;
    private Thread consumerThread;
    private Thread pingThread;
    private volatile boolean running;
    private volatile long lastPingOk;
    private volatile long streakStart = -1;

    /**
     * @param kafka brokers and topics
     * @param properties how many chunks may move at once
     */
    public KafkaWorkQueue(KafkaProperties kafka, TransferProperties properties) {
        this.kafka = kafka;
        this.properties = properties;
    }

    @Override
    public int freeSlots(int activeChunks) {
        return properties.maxActiveChunks() - activeChunks;
    }

    @Override
    public void submit(ChunkMessage chunk) {
        producer.send(new ProducerRecord<>(kafka.chunksTopic(), Long.toString(chunk.chunkId()), codec.write(chunk)));
    }

    @Override
    public void cancelTask(UUID taskId) {
        control(new ControlMessage(MessageCodec.VERSION, ControlMessage.Type.CANCEL_TASK, taskId, 0));
    }

    @Override
    public void cancelChunk(long chunkId) {
        control(new ControlMessage(MessageCodec.VERSION, ControlMessage.Type.CANCEL_CHUNK, null, chunkId));
    }

    private void control(ControlMessage message) {
        producer.send(new ProducerRecord<>(kafka.controlTopic(), codec.write(message)));
    }

    @Override
    public Instant deliveringSince() {
        long now = System.currentTimeMillis();
        long start = streakStart;
        if (start < 0 || now - lastPingOk > PING_STALE_MILLIS) {
            return Instant.ofEpochMilli(now);
        }
        return Instant.ofEpochMilli(start);
    }

    @Override
    public synchronized void start(MoverResults sink) {
        this.applier = sink;
        running = true;
        producer = new KafkaProducer<>(producerProperties());
        results = new KafkaConsumer<>(consumerProperties());
        consumerThread = new Thread(this::consume, "ferry-kafka-results");
        consumerThread.setDaemon(true);
        consumerThread.start();
        pingThread = new Thread(this::ping, "ferry-kafka-ping");
        pingThread.setDaemon(true);
        pingThread.start();
        log.info("Kafka work queue at {} (topics {}.*)", kafka.bootstrapServers(), kafka.topicPrefix());
    }

    @Override
    public synchronized void stop() {
        running = false;
        if (results != null) {
            results.wakeup();
        }
        if (pingThread != null) {
            pingThread.interrupt();
        }
        try {
            if (consumerThread != null) {
                consumerThread.join(10_000);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (producer != null) {
            producer.close(Duration.ofSeconds(5));
        }
    }

    private void consume() {
        try {
            createTopics();
            results.subscribe(List.of(kafka.resultsTopic()));
            while (running) {
                try {
                    ConsumerRecords<String, byte[]> records = results.poll(Duration.ofMillis(500));
                    if (records.isEmpty()) {
                        continue;
                    }
                    List<ResultMessage> batch = new ArrayList<>(records.count());
                    for (ConsumerRecord<String, byte[]> record : records) {
                        try {
                            batch.add(codec.result(record.value()));
                        } catch (IllegalArgumentException e) {
                            log.error("Dropping a result this scheduler cannot read: {}", e.getMessage());
                        }
                    }
                    applier.apply(batch); // returns once committed to the database
                    results.commitSync();
                } catch (WakeupException | InterruptedException e) {
                    throw e;
                } catch (RuntimeException e) {
                    // e.g. the broker restarts while committing: the results come again, and
                    // applying them twice changes nothing
                    log.warn("Kafka results consumer: {}", e.toString());
                    Thread.sleep(500);
                }
            }
        } catch (WakeupException e) {
            // stopping
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            log.error("Kafka results consumer failed", e);
        } finally {
            results.close(Duration.ofSeconds(5));
        }
    }

    /** Creates the three topics if missing; waits for the broker as long as it takes. */
    private void createTopics() throws InterruptedException {
        Properties admin = new Properties();
        admin.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        try (Admin client = Admin.create(admin)) {
            while (running) {
                try {
                    Set<String> existing = client.listTopics().names().get(10, TimeUnit.SECONDS);
                    List<NewTopic> missing = new ArrayList<>();
                    if (!existing.contains(kafka.chunksTopic())) {
                        missing.add(
                                new NewTopic(kafka.chunksTopic(), kafka.chunkPartitions(), kafka.replicationFactor()));
                    }
                    if (!existing.contains(kafka.resultsTopic())) {
                        missing.add(
                                new NewTopic(kafka.resultsTopic(), kafka.chunkPartitions(), kafka.replicationFactor()));
                    }
                    if (!existing.contains(kafka.controlTopic())) {
                        missing.add(new NewTopic(kafka.controlTopic(), 1, kafka.replicationFactor()));
                    }
                    if (!missing.isEmpty()) {
                        client.createTopics(missing).all().get(10, TimeUnit.SECONDS);
                    }
                    return;
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof TopicExistsException) {
                        return;
                    }
                    log.warn(
                            "Cannot create the Kafka topics yet: {}",
                            e.getCause().toString());
                } catch (TimeoutException e) {
                    log.warn("Kafka at {} does not answer yet", kafka.bootstrapServers());
                }
                Thread.sleep(1000);
            }
        }
    }

    private void ping() {
        while (running) {
            long sent = System.currentTimeMillis();
            try {
                producer.send(
                        new ProducerRecord<>(
                                kafka.controlTopic(),
                                codec.write(
                                        new ControlMessage(MessageCodec.VERSION, ControlMessage.Type.PING, null, 0))),
                        (metadata, failure) -> {
                            if (failure == null) {
                                if (streakStart < 0 || System.currentTimeMillis() - lastPingOk > PING_STALE_MILLIS) {
                                    streakStart = sent;
                                }
                                lastPingOk = System.currentTimeMillis();
                            } else {
                                streakStart = -1;
                            }
                        });
                Thread.sleep(PING_MILLIS);
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                streakStart = -1;
            }
        }
    }

    private Properties producerProperties() {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        p.put(ProducerConfig.LINGER_MS_CONFIG, "1");
        p.put(ProducerConfig.CLIENT_ID_CONFIG, "ferry-scheduler");
        return p;
    }

    private Properties consumerProperties() {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        p.put(ConsumerConfig.GROUP_ID_CONFIG, kafka.group());
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "2000");
        p.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, "20");
        p.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, "10000");
        p.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, "2000");
        return p;
    }
}
