package dev.redrive.console;

import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.redrive.config.QueueRegistry;
import dev.redrive.config.QueueSpec;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Each queue's pending, lag, consumers and pause as this process last measured them: the gauges
 * of /q/metrics (refreshed every {@code redrive.gauge-interval}), read from the meter registry,
 * so the overview costs Redis nothing for them.
 */
@ApplicationScoped
public class QueueFigures {

    @Inject
    QueueRegistry queues;

    @Inject
    MeterRegistry meters;

    /** One queue's figures; -1 where this process has no gauge for it (yet). */
    public record Queue(String name, String stream, String deadLetters, long pending, long lag, long consumers,
            boolean paused, double oldestPendingSeconds) {
    }

    public List<Queue> all() {
        List<Queue> all = new ArrayList<>();
        for (QueueSpec q : queues.queues().values()) {
            all.add(new Queue(q.name(), q.stream(), q.deadLetters(), gauge("redrive.pending", q), gauge("redrive.lag", q),
                    gauge("redrive.group.consumers", q), gauge("redrive.queue.paused", q) > 0,
                    value("redrive.oldest.pending.age", q)));
        }
        return all;
    }

    private long gauge(String name, QueueSpec q) {
        return Math.round(value(name, q));
    }

    private double value(String name, QueueSpec q) {
        Gauge gauge = meters.find(name).tag("queue", q.name()).tag("stream", q.stream()).gauge();
        return gauge == null ? -1 : gauge.value();
    }
}
