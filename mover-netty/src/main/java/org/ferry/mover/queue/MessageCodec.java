package org.ferry.mover.queue;

import java.nio.charset.StandardCharsets;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The JSON form of the work-queue messages: the records' components as fields, and a version
 * field {@code v} that a reader checks, so that movers and schedulers of different releases fail
 * loudly instead of misreading each other. Fields a reader does not know are ignored (a newer
 * writer may add some within one version). A reader also takes the versions before its own whose
 * fields are a subset of it (absent fields read as false or null): messages still queued when a
 * release is upgraded are read, never dropped. Thread-safe.
 */
public final class MessageCodec {

    /**
     * The message version this release writes: 2 since chunk messages carry endpoint logins as
     * {@link ChunkMessage.Access} with the secret sealed, {@code encryptData} and the credentials'
     * end (issue 13); 3 since they carry {@code preserveTimestamp} and each file's source
     * modification time. A mover of version 2 refuses a version 3 chunk instead of ignoring a
     * {@code preserveTimestamp} it does not know.
     */
    public static final int VERSION = 3;

    /** The oldest version this release reads: version 2 messages mean what they meant then. */
    public static final int OLDEST_READABLE = 2;

    private final JsonMapper mapper = JsonMapper.builder()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            // an older version lacks the newer fields: a missing boolean reads as false
            .disable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .build();

    /**
     * @param message a {@link ChunkMessage}, {@link ResultMessage} or {@link ControlMessage}
     * @return its JSON, UTF-8
     */
    public byte[] write(Object message) {
        return mapper.writeValueAsBytes(message);
    }

    /** @return the chunk message in {@code json} */
    public ChunkMessage chunk(byte[] json) {
        ChunkMessage message = read(json, ChunkMessage.class);
        return checked(message.v(), message);
    }

    /** @return the result message in {@code json} */
    public ResultMessage result(byte[] json) {
        ResultMessage message = read(json, ResultMessage.class);
        return checked(message.v(), message);
    }

    /** @return the control message in {@code json} */
    public ControlMessage control(byte[] json) {
        ControlMessage message = read(json, ControlMessage.class);
        return checked(message.v(), message);
    }

    private <T> T read(byte[] json, Class<T> type) {
        try {
            return mapper.readValue(json, type);
        } catch (JacksonException e) {
            throw new IllegalArgumentException(
                    "not a " + type.getSimpleName() + ": " + new String(json, StandardCharsets.UTF_8), e);
        }
    }

    private static <T> T checked(int version, T message) {
        if (version < OLDEST_READABLE || version > VERSION) {
            throw new IllegalArgumentException(
                    "message version " + version + ", this release reads " + OLDEST_READABLE + " to " + VERSION);
        }
        return message;
    }
}
