package org.ferry.mover.app;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.ferry.mover.queue.ChunkExecutor;
import org.ferry.mover.queue.ChunkMessage;
import org.ferry.mover.queue.ControlMessage;
import org.ferry.mover.queue.MessageCodec;
import org.ferry.mover.queue.ResultMessage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Kafka adapter of {@code ferry-mover}: a member of the movers' consumer group on the chunks
 * topic, running up to {@code slots} chunks at once with a {@link ChunkExecutor}, publishing
 * results to the results topic, and stopping chunks on the control topic's cancels.
 *
 * <p>Delivery: a chunk's offset is committed as soon as the chunk is taken, before it runs, so
 * Kafka never hands a chunk that one mover started to a second one (two movers writing one file).
 * A mover that dies mid-chunk is noticed by the scheduler (no heartbeat for its chunk timeout),
 * which offers the chunk's files again as a new chunk with the restart markers recorded so far.
 * Fencing: a mover whose results have not reached the broker for {@code fenceAfter} (half the
 * scheduler's chunk timeout) stops its chunks itself, so it cannot write a file the scheduler has
 * already handed to another mover.
 */
public final class KafkaMover implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(KafkaMover.class);
    /** How often a mover with every slot busy still polls (group membership, rebalances). */
    private static final long BUSY_POLL_MILLIS = 100;

    private final String bootstrapServers;
    private final String group;
    private final KafkaTopics topics;
    private final int slots;
    private final Duration fenceAfter;
    private final ChunkExecutor executor;
    private final String name;
    private final MessageCodec codec = new MessageCodec();
    private final Semaphore free;
    private final ExecutorService chunkThreads;
    private final AtomicLong lastAcknowledged = new AtomicLong(System.currentTimeMillis());
    private final AtomicLong oldestUnacknowledged = new AtomicLong(Long.MAX_VALUE);
    private final AtomicInteger unacknowledged = new AtomicInteger();
    private volatile boolean running = true;
    private KafkaProducer<String, byte[]> producer;
    private KafkaConsumer<String, byte[]> chunkConsumer;
    private KafkaConsumer<String, byte[]> controlConsumer;

    /**
     * @param bootstrapServers Kafka's {@code host:port[,host:port]}
     * @param group the movers' consumer group
     * @param topics the topics
     * @param slots chunks run at once
     * @param fenceAfter stop the chunks when results have not been acknowledged for this long
     * @param executor runs chunks
     * @param name this mover's name in results
     */
    public KafkaMover(
            String bootstrapServers,
            String group,
            KafkaTopics topics,
            int slots,
            Duration fenceAfter,
            ChunkExecutor executor,
            String name) {
        this.bootstrapServers = bootstrapServers;
        this.group = group;
        this.topics = topics;
        this.slots = slots;
        this.fenceAfter = fenceAfter;
        this.executor = executor;
        this.name = name;
        this.free = new Semaphore(slots);
        AtomicInteger number = new AtomicInteger();
        this.chunkThreads = Executors.newFixedThreadPool(slots, r -> {
            Thread thread = new Thread(r, "ferry-mover-chunk-" + number.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
    }

    /**
     * Runs until {@link #close}: takes chunks while slots are free, stops chunks on cancels and
     * when fenced.
     */
    public void run() {
        producer = new KafkaProducer<>(producerProperties());
        chunkConsumer = new KafkaConsumer<>(consumerProperties(group));
        controlConsumer = new KafkaConsumer<>(consumerProperties(null));
        Thread control = new Thread(this::control, "ferry-mover-control");
        control.setDaemon(true);
        control.start();
        Thread fence = new Thread(this::fence, "ferry-mover-fence");
        fence.setDaemon(true);
        fence.start();
        chunkConsumer.subscribe(List.of(topics.chunks()));
        log.info(
                "ferry-mover {} takes chunks from {} at {} ({} at once)",
                name,
                topics.chunks(),
                bootstrapServers,
                slots);
        try {
            while (running) {
                try {
                    if (free.availablePermits() == 0) {
                        // every slot busy: the group membership goes on (a poll that returns at once,
                        // the partitions paused), and the next chunk is taken the moment a slot frees,
                        // not at the end of a poll interval
                        chunkConsumer.pause(chunkConsumer.assignment());
                        chunkConsumer.poll(Duration.ZERO);
                        awaitSlot(BUSY_POLL_MILLIS);
                        continue;
                    }
                    chunkConsumer.resume(chunkConsumer.paused());
                    ConsumerRecords<String, byte[]> records = chunkConsumer.poll(Duration.ofMillis(500));
                    for (ConsumerRecord<String, byte[]> record : records) {
                        take(record);
                    }
                } catch (WakeupException e) {
                    throw e;
                } catch (RuntimeException e) {
                    // a broker restarting, a rebalance: poll again; an uncommitted chunk comes again
                    log.warn("Chunk consumer: {}", e.toString());
                    sleepQuietly(500);
                }
            }
        } catch (WakeupException e) {
            if (running) {
                throw e;
            }
        } finally {
            chunkConsumer.close(Duration.ofSeconds(5));
        }
    }

    private void take(ConsumerRecord<String, byte[]> record) {
        ChunkMessage chunk;
        try {
            chunk = codec.chunk(record.value());
        } catch (IllegalArgumentException e) {
            log.error("Dropping a chunk message this mover cannot read: {}", e.getMessage());
            commit(record);
            return;
        }
        free.acquireUninterruptibly(); // max.poll.records=1 and a paused consumer: a slot is free
        try {
            commit(record); // taken: Kafka must not hand it to another mover
        } catch (RuntimeException e) {
            // not committed: Kafka may hand it to another mover, so this one must not run it
            free.release();
            chunkConsumer.seek(new TopicPartition(record.topic(), record.partition()), record.offset());
            throw e;
        }
        lastAcknowledged.set(System.currentTimeMillis()); // a fresh chunk starts with a full grace period
        chunkThreads.submit(() -> {
            try {
                log.info(
                        "Chunk {} of task {}: {} files",
                        chunk.chunkId(),
                        chunk.taskId(),
                        chunk.request().files().size());
                executor.run(chunk, this::publish);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (RuntimeException e) {
                log.error("Chunk {} failed", chunk.chunkId(), e);
            } finally {
                free.release();
            }
        });
    }

    /** Waits until a slot is free (a chunk ended), at most {@code millis}; takes no slot. */
    private void awaitSlot(long millis) {
        try {
            if (free.tryAcquire(millis, TimeUnit.MILLISECONDS)) {
                free.release();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            running = false;
        }
    }

    private static void sleepQuietly(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void commit(ConsumerRecord<String, byte[]> record) {
        chunkConsumer.commitSync(Map.of(
                new TopicPartition(record.topic(), record.partition()),
                new org.apache.kafka.clients.consumer.OffsetAndMetadata(record.offset() + 1)));
    }

    private void publish(ResultMessage result) {
        long sent = System.currentTimeMillis();
        unacknowledged.incrementAndGet();
        oldestUnacknowledged.accumulateAndGet(sent, Math::min);
        producer.send(
                new ProducerRecord<>(topics.results(), result.taskId().toString(), codec.write(result)),
                (metadata, failure) -> {
                    if (failure == null) {
                        lastAcknowledged.accumulateAndGet(sent, Math::max);
                    } else {
                        log.warn("A result did not reach Kafka: {}", failure.toString());
                    }
                    if (unacknowledged.decrementAndGet() == 0) {
                        oldestUnacknowledged.set(Long.MAX_VALUE);
                    }
                });
    }

    /** Stops every chunk when results have not reached the broker for {@code fenceAfter}. */
    private void fence() {
        while (running) {
            try {
                Thread.sleep(500);
            } catch (InterruptedException e) {
                return;
            }
            long now = System.currentTimeMillis();
            boolean waiting = oldestUnacknowledged.get() != Long.MAX_VALUE;
            if (executor.runningChunks() > 0 && waiting && now - lastAcknowledged.get() > fenceAfter.toMillis()) {
                log.warn(
                        "No result acknowledged by Kafka for {} ms: stopping {} chunk(s) (the scheduler offers them again)",
                        now - lastAcknowledged.get(),
                        executor.runningChunks());
                executor.stopAll();
            }
        }
    }

    private void control() {
        try {
            List<TopicPartition> partitions = null;
            while (running && partitions == null) {
                List<PartitionInfo> infos = controlConsumer.partitionsFor(topics.control(), Duration.ofSeconds(5));
                if (infos != null && !infos.isEmpty()) {
                    partitions = infos.stream()
                            .map(info -> new TopicPartition(info.topic(), info.partition()))
                            .toList();
                }
            }
            if (partitions == null) {
                return;
            }
            controlConsumer.assign(partitions);
            controlConsumer.seekToEnd(partitions); // cancels sent before this mover started concern no chunk of it
            while (running) {
                for (ConsumerRecord<String, byte[]> record : controlConsumer.poll(Duration.ofMillis(200))) {
                    try {
                        ControlMessage message = codec.control(record.value());
                        switch (message.type()) {
                            case CANCEL_TASK -> executor.cancelTask(message.taskId());
                            case CANCEL_CHUNK -> executor.cancelChunk(message.chunkId());
                            case PING -> {}
                        }
                    } catch (IllegalArgumentException e) {
                        log.warn("Ignoring a control message: {}", e.getMessage());
                    }
                }
            }
        } catch (WakeupException | org.apache.kafka.common.errors.InterruptException e) {
            // closing
        } catch (RuntimeException e) {
            log.error("Control consumer failed", e);
        } finally {
            controlConsumer.close(Duration.ofSeconds(2));
        }
    }

    private Properties producerProperties() {
        Properties properties = new Properties();
        properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        properties.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        properties.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        properties.put(ProducerConfig.ACKS_CONFIG, "all");
        properties.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        properties.put(ProducerConfig.LINGER_MS_CONFIG, "2");
        properties.put(ProducerConfig.CLIENT_ID_CONFIG, "ferry-mover-" + name);
        return properties;
    }

    private Properties consumerProperties(String groupId) {
        Properties properties = new Properties();
        properties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        properties.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        properties.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        // ferry-server creates the topics with their partition counts: a mover started first must
        // not create them with the broker's defaults (one partition, the others never read)
        properties.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, "false");
        // partitions that appear after this mover subscribed (the server creating the topics, an
        // admin growing them) are assigned within seconds, not the client's default five minutes
        properties.put(ConsumerConfig.METADATA_MAX_AGE_CONFIG, "5000");
        if (groupId != null) {
            properties.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
            properties.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
            properties.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "1");
            // a killed mover's partitions move to the others after this long
            properties.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, "10000");
            properties.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, "2000");
        }
        properties.put(ConsumerConfig.CLIENT_ID_CONFIG, "ferry-mover-" + name + (groupId == null ? "-control" : ""));
        return properties;
    }

    @Override
    public void close() {
        running = false;
        executor.stopAll();
        if (chunkConsumer != null) {
            chunkConsumer.wakeup();
        }
        if (controlConsumer != null) {
            controlConsumer.wakeup();
        }
        chunkThreads.shutdownNow();
        if (producer != null) {
            producer.close(Duration.ofSeconds(5));
        }
    }
}
