package org.ferry.api.document;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * {@code GET /task/{id}/pause_info} (service-semantics b.6). Ferry has no pause rules yet, so
 * the lists are empty and the messages null; the shape is what globus-cli's
 * {@code task pause-info} reads.
 *
 * @param dataType {@code pause_info_limited}
 * @param pauseRules the rules that pause the task
 * @param sourcePauseMessage the source endpoint's pause message or null
 * @param sourcePauseMessageShare the same for a shared endpoint, or null
 * @param destinationPauseMessage the destination endpoint's pause message or null
 * @param destinationPauseMessageShare the same for a shared endpoint, or null
 */
public record PauseInfoDocument(
        @JsonProperty("DATA_TYPE") String dataType,
        @JsonProperty("pause_rules") List<Object> pauseRules,
        @JsonProperty("source_pause_message") String sourcePauseMessage,
        @JsonProperty("source_pause_message_share") String sourcePauseMessageShare,
        @JsonProperty("destination_pause_message") String destinationPauseMessage,
        @JsonProperty("destination_pause_message_share") String destinationPauseMessageShare) {}
