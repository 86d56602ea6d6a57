package dev.redrive.observe;

import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;

/**
 * One queue's meters. Tags stay low-cardinality (queue, stream, kind, outcome): never job ids or
 * messages. Counters are created once, so counting a job costs an increment.
 */
public final class QueueMetrics {

    private final MeterRegistry registry;
    private final Tags tags;
    private final Counter completed;
    private final Counter failedTransient;
    private final Counter failedTerminal;
    private final Counter released;
    private final Timer handlerOk;
    private final Timer handlerFailed;
    private final ConcurrentHashMap<String, Counter> deadLettered = new ConcurrentHashMap<>();
    private final AtomicLong deadLetterDepth = new AtomicLong();
    private final AtomicLong pending = new AtomicLong();
    private final AtomicLong lag = new AtomicLong();
    private final AtomicLong paused = new AtomicLong();
    private final AtomicLong consumers = new AtomicLong();
    private final AtomicLong oldestPendingAgeMillis = new AtomicLong();

    public QueueMetrics(MeterRegistry registry, String queue, String stream, String deadLetters) {
        this.registry = registry;
        this.tags = Tags.of("queue", queue, "stream", stream);
        completed = Counter.builder("redrive.jobs.completed").description("Jobs whose handler succeeded and that were acked")
                .tags(tags).register(registry);
        failedTransient = failed("transient");
        failedTerminal = failed("terminal");
        released = Counter.builder("redrive.jobs.released")
                .description("Deliveries handed back without spending an attempt (circuit open, shutdown)")
                .tags(tags).register(registry);
        handlerOk = timer("success");
        handlerFailed = timer("failure");
        registry.gauge("redrive.dlq.depth", Tags.of("queue", queue, "dlq", deadLetters), deadLetterDepth);
        registry.gauge("redrive.pending", tags, pending);
        registry.gauge("redrive.lag", tags, lag);
        registry.gauge("redrive.queue.paused", tags, paused);
        registry.gauge("redrive.group.consumers", tags, consumers);
        io.micrometer.core.instrument.Gauge.builder("redrive.oldest.pending.age", oldestPendingAgeMillis, v -> v.get() / 1000.0)
                .description("Age in seconds of the oldest job still pending in the group (0 when none)")
                .baseUnit("seconds").tags(tags).register(registry);
    }

    private Counter failed(String kind) {
        return Counter.builder("redrive.attempts.failed").description("Attempts that failed, by kind of failure")
                .tags(tags).tag("kind", kind).register(registry);
    }

    private Timer timer(String outcome) {
        return Timer.builder("redrive.handler.duration").description("Time spent in the handler per attempt")
                .tags(tags).tag("outcome", outcome)
                .serviceLevelObjectives(Duration.ofMillis(5), Duration.ofMillis(50), Duration.ofMillis(250),
                        Duration.ofSeconds(1), Duration.ofSeconds(5), Duration.ofSeconds(30))
                .register(registry);
    }

    public void completed(long nanos) {
        completed.increment();
        handlerOk.record(nanos, java.util.concurrent.TimeUnit.NANOSECONDS);
    }

    public void failed(boolean terminal, long nanos) {
        (terminal ? failedTerminal : failedTransient).increment();
        handlerFailed.record(nanos, java.util.concurrent.TimeUnit.NANOSECONDS);
    }

    public void released() {
        released.increment();
    }

    public void deadLettered(String failureKind) {
        deadLettered.computeIfAbsent(failureKind, kind -> Counter.builder("redrive.jobs.dead.lettered")
                .description("Jobs parked in the dead-letter stream, by failure kind")
                .tags(tags).tag("failure", kind).register(registry)).increment();
    }

    public void depth(long value) {
        deadLetterDepth.set(value);
    }

    public void pending(long value) {
        pending.set(value);
    }

    public void lag(long value) {
        lag.set(value);
    }

    public void consumers(long value) {
        consumers.set(value);
    }

    public void oldestPendingAge(long millis) {
        oldestPendingAgeMillis.set(Math.max(0, millis));
    }

    public void paused(boolean value) {
        paused.set(value ? 1 : 0);
    }
}
