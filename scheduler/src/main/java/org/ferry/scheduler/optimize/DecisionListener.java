package org.ferry.scheduler.optimize;

import org.ferry.api.domain.OptimizerDecision;

/** Hears every optimizer decision after it is stored (the web app's Prometheus gauges). */
public interface DecisionListener {

    /** @param decision the decision just stored */
    void decided(OptimizerDecision decision);
}
