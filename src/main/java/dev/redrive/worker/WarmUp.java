package dev.redrive.worker;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import org.jboss.logging.Logger;

import dev.redrive.config.QueueSpec;
import dev.redrive.deadletter.DeadLetterWriter;
import dev.redrive.job.Job;
import dev.redrive.job.JobFailedException;
import dev.redrive.observe.QueueMetrics;
import dev.redrive.redis.BlockingReads;
import dev.redrive.redis.RedisKeys;
import dev.redrive.redis.StreamAccess;
import dev.redrive.retry.Backoff;
import dev.redrive.time.Timers;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.prometheus.PrometheusConfig;
import io.micrometer.prometheus.PrometheusMeterRegistry;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;

/**
 * Runs jobs of redrive's own through a worker of its own before any queue starts. A fresh JVM runs
 * redrive's paths interpreted until its JIT has compiled them, and in those seconds the first
 * retries run late (bench/README.md: a fresh process's retry lateness p99 52-118 ms, a warm one's
 * 6-12 ms): the first minute of every rolling deploy. Here the JIT meets the same paths first: new
 * entries read (a backlog, then the blocking read), acks, an immediate retry (transfer.lua), a
 * retry after a Retry-After (the hand-over, its timer, claim.lua).
 * <p>
 * The jobs live on a private stream of this process, {@code redrive:warm-up:{<tag>}:<consumer>:<random>}
 * (inside the least-privilege ACL's {@code ~redrive:*}), in the group and slot of the first queue
 * (so that queue's blocking reader reads it: no connection more), its not-before hash beside it; their handler is this class's, never a configured one, so no job of yours and no provider
 * is touched; nothing is parked, traced or counted in /q/metrics. The keys expire seconds after it
 * ends, and within its time limit plus a minute should the process die first. Readiness stays DOWN
 * until it ends (the queues have not started); after {@code redrive.warm-up.timeout} the queues
 * start anyway. A warm-up that fails (Redis down, an ACL without {@code ~redrive:*}) says so in a
 * WARN and the queues start as they would have without it.
 */
final class WarmUp {

    private static final Logger LOG = Logger.getLogger(WarmUp.class);
    private static final Uni<Void> DONE = Uni.createFrom().voidItem();
    private static final String PATH = "path";
    /**
     * How long the keys outlive the warm-up: past the blocked read its worker's stop wakes (the read
     * must not find its group gone), short enough that nothing is left for long.
     */
    private static final Duration LINGER = Duration.ofSeconds(10);
    /** A third of the jobs of each kind: done at once, failed once and retried at once, failed once with a Retry-After. */
    private static final List<String> PATHS = List.of("done", "again", "later");
    /** The Retry-After of the "later" jobs: long enough to go through the hand-over and its timer, short enough not to wait. */
    private static final Duration RETRY_AFTER = Duration.ofMillis(2);
    private static final int ADD_BATCH = 1000;
    private static final Duration JIT_SAMPLE = Duration.ofMillis(100);

    private final StreamAccess redis;
    private final BlockingReads reads;
    private final DeadLetterWriter deadLetters;
    private final Vertx vertx;
    private final Timers time;
    private final String consumer;
    private final Duration redisTimeout;
    /** A configured queue whose group and slot the warm-up takes, so its blocking reader is that queue's. */
    private final QueueSpec beside;
    private volatile QueueWorker worker;
    private volatile boolean stopped;

    WarmUp(StreamAccess redis, BlockingReads reads, DeadLetterWriter deadLetters, Vertx vertx, Timers time,
            String consumer, Duration redisTimeout, QueueSpec beside) {
        this.beside = beside;
        this.redis = redis;
        this.reads = reads;
        this.deadLetters = deadLetters;
        this.vertx = vertx;
        this.time = time;
        this.consumer = consumer;
        this.redisTimeout = redisTimeout;
    }

    /**
     * Runs {@code jobs} jobs, or until {@code timeout}; completes either way (a warm-up that can't
     * run says why in the log and leaves the start as it was), never with a failure.
     */
    Uni<Void> run(int jobs, Duration timeout) {
        if (jobs <= 0 || beside == null) {
            return DONE;
        }
        String stream = RedisKeys.warmUp(beside.stream(), consumer + ":" + UUID.randomUUID().toString().substring(0, 8));
        String notBefore = RedisKeys.notBefore(stream);
        long started = System.nanoTime();
        AtomicInteger finished = new AtomicInteger();
        Uni<Void> allDone = Uni.createFrom().emitter(done -> {
            if (stopped) {
                done.complete(null); // shut down before its jobs were added: no worker to start
                return;
            }
            QueueSpec spec = spec(stream, beside.group());
            worker = new QueueWorker(spec, consumer, redis, reads.reader(stream, spec.group(), consumer, redisTimeout),
                    deadLetters, job -> attempt(job, () -> {
                        if (finished.incrementAndGet() == jobs) {
                            done.complete(null);
                        }
                    }), new QueueMetrics(privateRegistry(), spec.name(), stream, spec.deadLetters()), vertx,
                    // No breaker: its watch is told each attempt, as a queue's is, and never of an outage.
                    time, null, new OutageWatch(spec, time, outage -> { }));
            worker.start();
        });
        return redis.ensureGroup(stream, beside.group())
                .chain(() -> redis.expireWithHash(stream, notBefore, "warm-up", timeout.plus(Duration.ofMinutes(1))))
                .chain(() -> add(stream, jobs))
                .chain(() -> allDone)
                .chain(this::jitQuiet)
                .ifNoItem().after(timeout).fail()
                .onItemOrFailure().transformToUni((ok, error) -> {
                    stop();
                    long ms = (System.nanoTime() - started) / 1_000_000;
                    if (error == null) {
                        LOG.infof("warm-up: %d jobs of redrive's own and the JIT's compiling of them in %d ms; the "
                                + "queues start now", jobs, ms);
                    } else if (finished.get() == jobs) {
                        LOG.infof("warm-up: %d jobs of redrive's own done, the JIT still compiling at the time limit "
                                + "(%d ms); the queues start now", jobs, ms);
                    } else {
                        LOG.warnf("warm-up stopped after %d ms with %d of %d jobs done (%s); the queues start now, "
                                + "their first jobs may run slower", ms, finished.get(), jobs, error.getMessage());
                    }
                    // Bounded like every call: a frozen Redis must not hold the queues' start (the
                    // keys expire anyway, within the time limit plus a minute).
                    return redis.expire(List.of(stream, notBefore), LINGER).ifNoItem().after(redisTimeout).fail();
                })
                .onFailure().recoverWithNull();
    }

    /**
     * Waits until the JIT has compiled what the jobs queued for it: compiling goes on for a while
     * after the jobs end, on the cores the first real jobs need. Quiet is less than a tenth of a
     * sample spent compiling; a JVM that can't tell (a native image has no JIT) does not wait.
     */
    private Uni<Void> jitQuiet() {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        if (jit == null || !jit.isCompilationTimeMonitoringSupported()) {
            return DONE;
        }
        return Uni.createFrom().emitter(quiet -> sample(jit, jit.getTotalCompilationTime(), quiet::complete));
    }

    private void sample(CompilationMXBean jit, long before, java.util.function.Consumer<Void> quiet) {
        time.after(JIT_SAMPLE, () -> {
            if (stopped) {
                return; // past its time limit, or shut down: nothing waits for the answer
            }
            long now = jit.getTotalCompilationTime();
            if (now - before <= JIT_SAMPLE.toMillis() / 10) {
                quiet.accept(null);
            } else {
                sample(jit, now, quiet);
            }
        });
    }

    /**
     * Meters of the kinds /q/metrics serves (a composite over Prometheus', as Quarkus builds it),
     * so recording them is warm too, in a registry no one scrapes.
     */
    private static MeterRegistry privateRegistry() {
        CompositeMeterRegistry registry = new CompositeMeterRegistry();
        registry.add(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
        return registry;
    }

    /** Stops the warm-up's worker, if it runs (shutdown during the warm-up). */
    void stop() {
        stopped = true;
        QueueWorker w = worker;
        if (w != null) {
            w.stop();
        }
    }

    /** Each job's path is its "path" field: done at once, or failed on its first attempt and done on its second. */
    private static Uni<Void> attempt(Job job, Runnable finished) {
        byte[] path = job.fields().get(PATH);
        String kind = path == null ? "done" : new String(path, StandardCharsets.US_ASCII);
        if (job.attempt() == 1 && !kind.equals("done")) {
            return Uni.createFrom().failure(new JobFailedException("warm-up", "redrive's warm-up fails a first attempt",
                    kind.equals("later") ? RETRY_AFTER : null));
        }
        finished.run();
        return DONE;
    }

    /** Adds the jobs a batch at a time, each batch built when it is sent (never all of them in memory at once). */
    private Uni<Void> add(String stream, int jobs) {
        Uni<Void> added = DONE;
        for (int from = 0; from < jobs; from += ADD_BATCH) {
            int first = from;
            added = added.chain(() -> {
                List<Map<String, byte[]>> entries = new ArrayList<>();
                for (int i = first; i < Math.min(jobs, first + ADD_BATCH); i++) {
                    entries.add(Map.of(PATH, PATHS.get(i % PATHS.size()).getBytes(StandardCharsets.US_ASCII)));
                }
                return redis.add(stream, entries);
            });
        }
        return added;
    }

    /** A queue as a configured one would be, with no backoff (a retry is at once, or after its Retry-After). */
    private static QueueSpec spec(String stream, String group) {
        return new QueueSpec("redrive-warm-up", stream, group, "warm-up", null, Duration.ofSeconds(30),
                1, null, 3, Backoff.exponential(Duration.ZERO, Duration.ZERO, 0), stream + ":dlq", 256, 64,
                Duration.ofSeconds(1), Duration.ofSeconds(1), Duration.ofSeconds(30), Duration.ofSeconds(1), false);
    }
}
