package org.ferry.server.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.ToDoubleFunction;
import org.ferry.api.domain.OptimizerDecision;
import org.ferry.scheduler.optimize.DecisionListener;
import org.ferry.scheduler.optimize.Optimizer;
import org.springframework.stereotype.Component;

/**
 * The optimizer's latest decision per endpoint pair as Prometheus series, tagged
 * {@code source} and {@code destination} (endpoint ids): {@code ferry_optimizer_concurrency}
 * (session pairs allowed), {@code ferry_optimizer_parallelism} (data connections per file),
 * {@code ferry_optimizer_throughput_ema_bytes_per_second}, {@code ferry_optimizer_success_rate}
 * (percent). A pair's series appear with its first decision on this instance.
 */
@Component
public class OptimizerMetrics implements MeterBinder, DecisionListener {

    private final Map<String, AtomicReference<OptimizerDecision>> latest = new ConcurrentHashMap<>();
    private volatile MeterRegistry registry;

    /** @param optimizer tells this of every decision */
    public OptimizerMetrics(Optimizer optimizer) {
        optimizer.addListener(this);
    }

    @Override
    public void bindTo(MeterRegistry meters) {
        this.registry = meters;
        latest.values().forEach(this::register);
    }

    @Override
    public void decided(OptimizerDecision decision) {
        String pair = decision.sourceEndpointId() + ">" + decision.destinationEndpointId();
        AtomicReference<OptimizerDecision> holder = latest.get(pair);
        if (holder != null) {
            holder.set(decision);
            return;
        }
        holder = new AtomicReference<>(decision);
        if (latest.putIfAbsent(pair, holder) == null && registry != null) {
            register(holder);
        } else {
            latest.get(pair).set(decision);
        }
    }

    private void register(AtomicReference<OptimizerDecision> holder) {
        OptimizerDecision first = holder.get();
        Tags tags = Tags.of(
                "source", first.sourceEndpointId().toString(),
                "destination", first.destinationEndpointId().toString());
        gauge(
                "ferry.optimizer.concurrency",
                "Session pairs the optimizer allows the endpoint pair",
                tags,
                holder,
                OptimizerDecision::concurrency);
        gauge(
                "ferry.optimizer.parallelism",
                "Data connections per file the optimizer allows",
                tags,
                holder,
                OptimizerDecision::parallelism);
        gauge(
                "ferry.optimizer.throughput.ema.bytes.per.second",
                "Moving average of the endpoint pair's throughput",
                tags,
                holder,
                OptimizerDecision::throughputEma);
        gauge(
                "ferry.optimizer.success.rate",
                "Percent of the last interval's finished files that succeeded",
                tags,
                holder,
                OptimizerDecision::successRate);
    }

    private void gauge(
            String name,
            String description,
            Tags tags,
            AtomicReference<OptimizerDecision> holder,
            ToDoubleFunction<OptimizerDecision> value) {
        Gauge.builder(name, holder, h -> value.applyAsDouble(h.get()))
                .description(description)
                .tags(tags)
                .register(registry);
    }
}
