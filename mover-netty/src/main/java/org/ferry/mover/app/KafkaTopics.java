package org.ferry.mover.app;

/**
 * The work queue's three Kafka topics, named from one prefix ({@code ferry} by default): chunks
 * ({@code PREFIX.chunks}, keyed by chunk id, read by the movers' consumer group), results
 * ({@code PREFIX.results}, keyed by task id, read by the schedulers' group), control
 * ({@code PREFIX.control}: cancels, read by every mover from its end).
 *
 * @param chunks chunk messages
 * @param results result messages
 * @param control control messages
 */
public record KafkaTopics(String chunks, String results, String control) {

    /** @return the topics named {@code prefix.chunks}, {@code prefix.results}, {@code prefix.control} */
    public static KafkaTopics withPrefix(String prefix) {
        return new KafkaTopics(prefix + ".chunks", prefix + ".results", prefix + ".control");
    }
}
