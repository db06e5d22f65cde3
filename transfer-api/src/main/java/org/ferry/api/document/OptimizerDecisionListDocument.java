package org.ferry.api.document;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * Optimizer decisions ({@code GET /optimizer/current}: one per pair, newest first;
 * {@code /optimizer/evolution}: one pair's, oldest first).
 *
 * @param dataType {@code optimizer_decision_list}
 * @param data the decisions
 */
public record OptimizerDecisionListDocument(
        @JsonProperty("DATA_TYPE") String dataType,
        @JsonProperty("DATA") List<OptimizerDecisionDocument> data) {}
