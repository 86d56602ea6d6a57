package dev.redrive.worker;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import dev.redrive.config.ProcessIdentity;
import dev.redrive.config.QueueRegistry;
import dev.redrive.config.QueueSpec;
import dev.redrive.config.RedriveConfig;
import dev.redrive.deadletter.DeadLetterWriter;
import dev.redrive.deadletter.Outage;
import dev.redrive.job.Job;
import dev.redrive.observe.QueueMetrics;
import dev.redrive.observe.QueueStates;
import dev.redrive.redis.BlockingReads;
import dev.redrive.redis.Permissions;
import dev.redrive.redis.StreamAccess;
import dev.redrive.redis.StreamInfo;
import dev.redrive.time.Timers;
import dev.redrive.trace.Tracing;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.faulttolerance.api.CircuitBreakerState;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;

/**
 * Starts a {@link QueueWorker} per configured queue once its group exists, refreshes the gauges,
 * and drains on shutdown: stop reading at once, let running jobs finish within
 * {@code redrive.shutdown-timeout}, leave the rest pending for stall recovery.
 */
@ApplicationScoped
public class Workers implements QueueStates {

    private static final Logger LOG = Logger.getLogger(Workers.class);

    @Inject
    RedriveConfig config;

    @Inject
    QueueRegistry queues;

    @Inject
    ProcessIdentity identity;

    @Inject
    Handlers handlers;

    @Inject
    StreamAccess redis;

    @Inject
    StreamInfo streams;

    @Inject
    BlockingReads reads;

    @Inject
    Permissions permissions;

    @Inject
    DeadLetterWriter deadLetters;

    @Inject
    MeterRegistry registry;

    @Inject
    Vertx vertx;

    @Inject
    Tracing tracing;

    @Inject
    Timers time;

    /** Where an ended outage is told (redrive's OutageProposals observes it: this package may not import redrive). */
    @Inject
    Event<Outage> outages;

    /** How long a queue whose group can't be created yet waits before it tries again. */
    private static final Duration GROUP_RETRY = Duration.ofSeconds(2);

    private String consumer;
    private final Map<String, QueueWorker> workers = new ConcurrentHashMap<>();
    private final Map<String, QueueMetrics> metrics = new ConcurrentHashMap<>();
    private final List<ReceiveLimitWatch> watches = new CopyOnWriteArrayList<>();
    private FigureRound figures;
    private Timers.Timer gaugeTimer = Timers.Timer.NONE;
    private volatile ProbeTimers probes;
    private volatile boolean shuttingDown;
    /** Set while the warm-up runs: the queues start when it ends. */
    private volatile WarmUp warmUp;
    /** Set when the shutdown timeout passes: what still runs then is left pending, its outcome dropped. */
    private volatile boolean abandoned;

    void onStart(@Observes @Priority(10) StartupEvent event) {
        try {
            requirePermissions();
            new DeadLetterKeyTypes(streams).require(queues.deadLetterStreams());
        } catch (RuntimeException e) {
            LOG.error(e.getMessage());
            throw e;
        }
        consumer = identity.consumer();
        probes = new ProbeTimers(time);
        figures = new FigureRound(List.copyOf(queues.queues().values()), streams, metrics, time, config.redisTimeout());
        for (QueueSpec spec : queues.queues().values()) {
            metrics.put(spec.name(), new QueueMetrics(registry, spec.name(), spec.stream(), spec.deadLetters()));
            deadLetters.expectParks(spec.name());
        }
        // The queues start once the JIT has met redrive's paths (WarmUp), beside the first of them
        // (its group and slot); with no warm-up, or no queue to be late for, at once.
        QueueSpec beside = queues.queues().values().stream().findFirst().orElse(null);
        WarmUp running = new WarmUp(redis, reads, deadLetters, vertx, time, consumer, config.redisTimeout(), beside);
        warmUp = running;
        running.run(config.warmUp().jobs(), config.warmUp().timeout()).subscribe().with(done -> startQueues(),
                error -> {
                    LOG.warnf("warm-up failed (%s); the queues start now", error.getMessage());
                    startQueues();
                });
        for (var watch : queues.watches().values()) {
            ReceiveLimitWatch limit = ReceiveLimitWatch.of(watch, redis, streams, deadLetters, time);
            deadLetters.expectParks(watch.name());
            watches.add(limit);
            limit.start();
            LOG.infof("watching %s/%s: entries delivered more than %d times are parked in %s", watch.stream(),
                    watch.group(), watch.maxReceiveCount(), watch.deadLetters());
        }
        gaugeTimer = time.every(config.gaugeInterval(), figures::refresh);
        LOG.infof("redrive consumer %s works %d queue(s): %s", consumer, queues.queues().size(), queues.queues().keySet());
    }

    private void startQueues() {
        warmUp = null;
        if (!shuttingDown) {
            queues.queues().values().forEach(this::startWhenGroupExists);
        }
    }

    /**
     * Refuses to start when redrive's Redis user may not run a command it needs (a least-privilege
     * ACL missing one), naming each: otherwise jobs would fail one by one at the missing command.
     */
    private void requirePermissions() {
        List<String> streamsRead = new java.util.ArrayList<>();
        queues.queues().values().forEach(q -> streamsRead.add(q.stream()));
        queues.watches().values().forEach(w -> streamsRead.add(w.stream()));
        List<String> refused = permissions.refused(streamsRead, queues.deadLetterStreams(), config.redisTimeout());
        if (!refused.isEmpty()) {
            throw new IllegalStateException("redrive's Redis user may not run " + String.join(", ", refused)
                    + ": grant it the ACL rule of docs/REDIS.md (ACL SETUSER), or use a user that may");
        }
    }

    private void startWhenGroupExists(QueueSpec spec) {
        redis.ensureGroup(spec.stream(), spec.group()).subscribe().with(ok -> {
            if (shuttingDown) {
                return;
            }
            QueueMetrics m = metrics.get(spec.name());
            OutageWatch outage = new OutageWatch(spec, time, this::report);
            // The breaker reports to the queue's worker once it runs: it can't report before the worker calls it.
            var handler = abandonable(handlers.forQueue(spec, state -> onCircuit(workers.get(spec.name()), outage, state)));
            var reader = reads.reader(spec.stream(), spec.group(), consumer, config.redisTimeout());
            QueueWorker worker = new QueueWorker(spec, consumer, redis, reader, deadLetters, handler, m, vertx, time,
                    tracing.forQueue(spec.stream(), spec.group()), outage);
            workers.put(spec.name(), worker);
            figures.observe(spec.name(), worker::observe);
            worker.start();
            LOG.infof("queue %s: reading %s as %s/%s, %d attempts, dead letters to %s", spec.name(), spec.stream(),
                    spec.group(), consumer, spec.maxAttempts(), spec.deadLetters());
        }, error -> {
            LOG.warnf("queue %s: can't create group %s on %s yet (%s); trying again in %s", spec.name(), spec.group(),
                    spec.stream(), error.getMessage(), GROUP_RETRY);
            if (!shuttingDown) {
                time.after(GROUP_RETRY, () -> startWhenGroupExists(spec));
            }
        });
    }

    /**
     * A job still running when the drain gives up stays pending for stall recovery, as the log
     * says; its late outcome (or the failure the closing HTTP client gives it) must not be written
     * then, since the Redis client and the CDI container close right after the drain.
     */
    private Function<Job, Uni<Void>> abandonable(Function<Job, Uni<Void>> handler) {
        return job -> handler.apply(job).onItemOrFailure().transformToUni((ok, error) -> {
            if (abandoned) {
                return Uni.createFrom().nothing();
            }
            return error == null ? Uni.createFrom().voidItem() : Uni.createFrom().failure(error);
        });
    }

    private void onCircuit(QueueWorker worker, OutageWatch outage, CircuitBreakerState state) {
        if (worker == null) {
            return;
        }
        QueueSpec spec = worker.spec();
        switch (state) {
            case OPEN -> {
                LOG.warnf("queue %s paused: the circuit to %s is open; no attempts are spent until a probe succeeds "
                        + "(next probe in %s)", spec.name(), spec.httpUrl(), spec.circuitBreaker().delay());
                outage.opened();
                worker.pause();
                // The breaker only half-opens when called; after its delay, let one job through to probe.
                probes.schedule(spec.name(), spec.circuitBreaker().delay(), worker::probe);
            }
            case CLOSED -> {
                if (worker.paused()) {
                    LOG.infof("queue %s resumes: a probe to %s succeeded", spec.name(), spec.httpUrl());
                }
                worker.resume();
                outage.closed();
            }
            case HALF_OPEN -> {
            }
        }
    }

    /**
     * Tells the observers of an outage that is over ({@link OutageWatch}); one that fails must not
     * keep the queue from running.
     */
    private void report(Outage outage) {
        try {
            outages.fire(outage);
        } catch (RuntimeException e) {
            LOG.errorf(e, "queue %s: the end of its outage could not be reported (%s); no redrive of what it parked "
                    + "is proposed", outage.queue().name(), e.getMessage());
        }
    }

    void onStop(@Observes @Priority(10) ShutdownEvent event) {
        shuttingDown = true;
        WarmUp running = warmUp;
        if (running != null) {
            running.stop();
        }
        gaugeTimer.cancel();
        if (probes != null) {
            probes.cancelAll();
        }
        workers.values().forEach(QueueWorker::stop);
        watches.forEach(ReceiveLimitWatch::stop);
        long deadline = System.nanoTime() + config.shutdownTimeout().toNanos();
        while (System.nanoTime() < deadline && !workers.values().stream().allMatch(QueueWorker::idle)) {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        abandoned = true;
        List<String> busy = new ArrayList<>();
        workers.values().stream().filter(w -> !w.idle()).forEach(w -> busy.add(w.spec().name()));
        if (busy.isEmpty()) {
            LOG.infof("drained: every running job finished before shutdown");
        } else {
            LOG.warnf("shutdown timeout %s passed with jobs still running in %s; they stay pending under %s and "
                    + "run again through stall recovery", config.shutdownTimeout(), busy, consumer);
        }
    }

    @Override
    public boolean warmingUp() {
        return warmUp != null;
    }

    @Override
    public Map<String, Boolean> pausedByQueue() {
        Map<String, Boolean> paused = new LinkedHashMap<>();
        workers.forEach((name, worker) -> paused.put(name, worker.paused()));
        return paused;
    }
}
