package org.ferry.scheduler.queue.kafka;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.ferry.mover.queue.ChunkMessage;
import org.ferry.mover.queue.ControlMessage;
import org.ferry.mover.queue.MessageCodec;
import org.ferry.mover.queue.ResultMessage;
import org.ferry.scheduler.TransferProperties;
import org.ferry.scheduler.queue.MoverResults;
import org.ferry.scheduler.queue.WorkQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.listener.BatchMessageListener;
import org.springframework.kafka.listener.ContainerProperties;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.kafka.listener.KafkaMessageListenerContainer;
import org.springframework.util.backoff.FixedBackOff;

/**
 * The Kafka work queue ({@code ferry.queue.type=kafka}) on Spring for Apache Kafka: chunks go to
 * the chunks topic keyed by chunk id (ferry-mover processes share them as one consumer group),
 * cancels to the control topic (every mover reads it), through a {@link KafkaTemplate}. The
 * movers' results come back on the results topic to a listener container with a batch listener
 * in the schedulers' consumer group, which hands each batch to the {@link MoverResults} it was
 * started with; the batch's offsets are committed only after the results are in the database
 * (at least once; applying a result twice changes nothing), and a batch that fails is replayed
 * after half a second by the container's error handler, never skipped. The topics are
 * {@link NewTopic} beans ({@link KafkaQueueConfiguration}), created (or found) before the
 * container starts, however long the broker takes to answer. A PING on the control topic every
 * second tells whether the broker takes messages: while it does not, a mover's silence is not
 * taken as its loss.
 */
public class KafkaWorkQueue implements WorkQueue {

    private static final Logger log = LoggerFactory.getLogger(KafkaWorkQueue.class);
    private static final long PING_MILLIS = 1000;
    private static final long PING_STALE_MILLIS = 3000;
    /** How long a failed batch waits before it is applied again. */
    private static final long REPLAY_MILLIS = 500;

    private final KafkaProperties kafka;
    private final TransferProperties properties;
    private final KafkaTemplate<String, byte[]> template;
    private final ConsumerFactory<String, byte[]> consumers;
    private final KafkaAdmin admin;
    private final List<NewTopic> topics;
    private final MessageCodec codec = new MessageCodec();
    private KafkaMessageListenerContainer<String, byte[]> results;
    private Thread pingThread;
    private volatile boolean running;
    private volatile long lastPingOk;
    private volatile long streakStart = -1;

    /**
     * @param kafka brokers and topics
     * @param properties how many chunks may move at once
     * @param template sends chunks and control messages
     * @param consumers the results consumer's factory (the schedulers' group)
     * @param admin creates the topics
     * @param topics the chunks, results and control topics
     */
    public KafkaWorkQueue(
            KafkaProperties kafka,
            TransferProperties properties,
            KafkaTemplate<String, byte[]> template,
            ConsumerFactory<String, byte[]> consumers,
            KafkaAdmin admin,
            List<NewTopic> topics) {
        this.kafka = kafka;
        this.properties = properties;
        this.template = template;
        this.consumers = consumers;
        this.admin = admin;
        this.topics = List.copyOf(topics);
    }

    @Override
    public int capacity() {
        return properties.maxActiveChunks();
    }

    @Override
    public int freeSlots(int activeChunks) {
        return properties.maxActiveChunks() - activeChunks;
    }

    @Override
    public void submit(ChunkMessage chunk) {
        template.send(kafka.chunksTopic(), Long.toString(chunk.chunkId()), codec.write(chunk));
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
        template.send(kafka.controlTopic(), codec.write(message));
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
        running = true;
        ContainerProperties container = new ContainerProperties(kafka.resultsTopic());
        container.setGroupId(kafka.group());
        container.setAckMode(ContainerProperties.AckMode.BATCH);
        container.setPollTimeout(500);
        container.setMessageListener((BatchMessageListener<String, byte[]>) records -> apply(records, sink));
        results = new KafkaMessageListenerContainer<>(consumers, container);
        results.setBeanName("ferry-kafka-results");
        // a batch that fails (the database away longer than the applier waits, a stop) is replayed
        // from its first record, without end: results are never skipped
        results.setCommonErrorHandler(
                new DefaultErrorHandler(new FixedBackOff(REPLAY_MILLIS, FixedBackOff.UNLIMITED_ATTEMPTS)));
        pingThread = new Thread(this::run, "ferry-kafka-ping");
        pingThread.setDaemon(true);
        pingThread.start();
        log.info("Kafka work queue at {} (topics {}.*)", kafka.bootstrapServers(), kafka.topicPrefix());
    }

    /** Applies one batch; returns once it is in the database, so that its offsets are committed. */
    private void apply(List<ConsumerRecord<String, byte[]>> records, MoverResults sink) {
        List<ResultMessage> batch = new ArrayList<>(records.size());
        for (ConsumerRecord<String, byte[]> record : records) {
            try {
                batch.add(codec.result(record.value()));
            } catch (IllegalArgumentException e) {
                log.error("Dropping a result this scheduler cannot read: {}", e.getMessage());
            }
        }
        try {
            sink.apply(batch);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("stopped while applying results: the batch comes again", e);
        }
    }

    @Override
    public synchronized void stop() {
        running = false;
        if (pingThread != null) {
            pingThread.interrupt();
        }
        if (results != null && results.isRunning()) {
            results.stop();
        }
    }

    /** Creates (or finds) the topics, starts the results container, then pings the broker. */
    private void run() {
        while (running) {
            try {
                admin.createOrModifyTopics(topics.toArray(NewTopic[]::new));
                break;
            } catch (RuntimeException e) {
                log.warn("Cannot create the Kafka topics at {} yet: {}", kafka.bootstrapServers(), e.toString());
            }
            if (!pause(1000)) {
                return;
            }
        }
        synchronized (this) {
            if (!running) {
                return;
            }
            results.start();
        }
        while (running) {
            long sent = System.currentTimeMillis();
            try {
                template.send(
                                kafka.controlTopic(),
                                codec.write(
                                        new ControlMessage(MessageCodec.VERSION, ControlMessage.Type.PING, null, 0)))
                        .whenComplete((metadata, failure) -> {
                            if (failure == null) {
                                if (streakStart < 0 || System.currentTimeMillis() - lastPingOk > PING_STALE_MILLIS) {
                                    streakStart = sent;
                                }
                                lastPingOk = System.currentTimeMillis();
                            } else {
                                streakStart = -1;
                            }
                        });
            } catch (RuntimeException e) {
                streakStart = -1;
            }
            if (!pause(PING_MILLIS)) {
                return;
            }
        }
    }

    private static boolean pause(long millis) {
        try {
            Thread.sleep(millis);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
