package org.ferry.mover.queue;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import java.nio.charset.StandardCharsets;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
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
     * The message version this release writes: 2 since chunk messages carry endpoint logins with
     * the secret sealed, {@code encryptData} and the credentials' end (issue 13); 3 since they
     * carry {@code preserveTimestamp} and each file's source modification time; 4 since a chunk
     * message carries the chunk in the one shape the runner takes ({@code request}: a
     * {@link org.ferry.mover.runner.ChunkRequest} with its {@link org.ferry.mover.runner.FileTransfer}s,
     * issue 30) inside its envelope; 5 since the request carries {@code checksumAlgorithm} and its
     * files an {@code externalChecksum} (issue 35: a version-4 mover would verify MD5 and ignore the
     * given value); 6 since the request carries {@code additionalDestinations} (Ferry's multicast: a
     * version-5 mover would move to the first destination only and report the files arrived). A
     * mover of an older version refuses a newer chunk instead of misreading it:
     * upgrade the movers before the servers.
     */
    public static final int VERSION = 6;

    /** The oldest version this release reads: version 2 messages mean what they meant then. */
    public static final int OLDEST_READABLE = 2;

    private final JsonMapper mapper = JsonMapper.builder()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            // an older version lacks the newer fields: a missing boolean reads as false
            .disable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            // the records' components only: derived answers (isGsi, isResumed) are not the message
            .changeDefaultVisibility(visibility -> visibility.withIsGetterVisibility(JsonAutoDetect.Visibility.NONE))
            .build();

    /**
     * @param message a {@link ChunkMessage}, {@link ResultMessage} or {@link ControlMessage}
     * @return its JSON, UTF-8
     */
    public byte[] write(Object message) {
        return mapper.writeValueAsBytes(message);
    }

    /**
     * @return the chunk message in {@code json} (versions 2 and 3, the flat shape of their time,
     *     read as this release's)
     */
    public ChunkMessage chunk(byte[] json) {
        JsonNode tree;
        try {
            tree = mapper.readTree(json);
        } catch (JacksonException e) {
            throw new IllegalArgumentException("not a ChunkMessage: " + new String(json, StandardCharsets.UTF_8), e);
        }
        int version = tree.path("v").asInt(0);
        checked(version, tree);
        try {
            return version < 4
                    ? mapper.treeToValue(tree, LegacyChunk.class).toMessage()
                    : mapper.treeToValue(tree, ChunkMessage.class);
        } catch (JacksonException | NullPointerException e) {
            throw new IllegalArgumentException("not a ChunkMessage: " + new String(json, StandardCharsets.UTF_8), e);
        }
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
