package org.ferry.scheduler.drive;

import org.ferry.scheduler.optimize.Optimizer;
import org.springframework.stereotype.Component;

/**
 * Step 10 of a pass: once per {@code ferry.optimizer.interval}, the {@link Optimizer} decides for
 * every endpoint pair that moved something or has a task this instance drives.
 */
@Component
public class OptimizerStep implements TickStep {

    private final Optimizer optimizer;

    /** @param optimizer the optimizer */
    public OptimizerStep(Optimizer optimizer) {
        this.optimizer = optimizer;
    }

    @Override
    public String name() {
        return "optimize";
    }

    @Override
    public void run(Tick tick) {
        if (optimizer.due(tick.now())) {
            optimizer.decide(tick.now(), tick.transfers());
        }
    }
}
