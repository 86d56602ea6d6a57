package dev.redrive.redrive;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import dev.redrive.config.RedriveConfig;
import dev.redrive.deadletter.ReplayTargets;
import dev.redrive.redis.RedisTime;
import dev.redrive.time.Timers;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;

/**
 * {@code redrive_proposals_waiting{dlq}}: the proposals of each dead-letter stream that wait for a
 * decision, as {@link Proposals#waiting} counts them (on Redis' clock, so an expired one no longer
 * counts, up to {@link Proposals#WAITING_LIMIT}: the limit means "that many or more"). A proposal
 * moves nothing until someone approves it, so one that waits unseen is a redrive that never
 * happens; RedriveProposalWaiting (deploy/k8s/base/prometheusrule.yaml) pages on it.
 *
 * <p>Registered at 0 for every dead-letter stream at start-up, so the series exists before the
 * first proposal; refreshed every {@code redrive.gauge-interval} like the queues' gauges, one
 * round at a time, each given up after {@code redrive.redis-timeout} (a frozen Redis must not pile
 * rounds up). A failed round keeps the last values. It is logged at DEBUG only: the queues' own
 * figure round reads the same Redis on the same interval and already logs its outage once.
 */
@ApplicationScoped
public class WaitingProposalsGauge {

    private static final Logger LOG = Logger.getLogger(WaitingProposalsGauge.class);

    @Inject
    Proposals proposals;

    @Inject
    ReplayTargets targets;

    @Inject
    MeterRegistry registry;

    @Inject
    RedriveConfig config;

    @Inject
    Timers time;

    @Inject
    RedisTime redisTime;

    private final Map<String, AtomicLong> waiting = new LinkedHashMap<>();
    private final AtomicBoolean running = new AtomicBoolean();
    private volatile Timers.Timer timer = Timers.Timer.NONE;

    void onStart(@Observes @Priority(30) StartupEvent event) {
        for (String dlq : targets.deadLetterStreams()) {
            AtomicLong value = new AtomicLong();
            waiting.put(dlq, value);
            Gauge.builder("redrive.proposals.waiting", value, AtomicLong::get)
                    .description("Proposed redrives of the dead-letter stream that wait for a decision (counted up to "
                            + Proposals.WAITING_LIMIT + ")")
                    .tag("dlq", dlq).register(registry);
        }
        timer = time.every(config.gaugeInterval(), this::refresh);
    }

    void onStop(@Observes ShutdownEvent event) {
        timer.cancel();
    }

    /** Starts a round, unless the previous one still runs. */
    void refresh() {
        if (!running.compareAndSet(false, true)) {
            return;
        }
        // Deferred: a failure to even build a read ends the round like any other, never leaves it running.
        Uni.createFrom().deferred(this::round).ifNoItem().after(config.redisTimeout()).fail()
                .subscribe().with(ok -> running.set(false), error -> {
                    LOG.debugf("counting the waiting proposals failed (%s); the gauge keeps its last values", error.getMessage());
                    running.set(false);
                });
    }

    /** Redis' time once, then one range read per stream: an idle stream costs one command per interval. */
    private Uni<Void> round() {
        if (waiting.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return redisTime.now().flatMap(now -> Uni.join().all(waiting.entrySet().stream()
                .map(e -> proposals.waiting(e.getKey(), now).invoke(w -> e.getValue().set(w.count())).replaceWithVoid())
                .toList()).andFailFast().replaceWithVoid());
    }
}
