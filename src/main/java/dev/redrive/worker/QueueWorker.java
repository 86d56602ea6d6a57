package dev.redrive.worker;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import org.jboss.logging.Logger;

import dev.redrive.config.QueueSpec;
import dev.redrive.deadletter.DeadLetters;
import dev.redrive.job.Job;
import dev.redrive.observe.QueueMetrics;
import dev.redrive.redis.StreamAccess;
import dev.redrive.retry.Decision;
import dev.redrive.retry.Failure;
import dev.redrive.retry.RetryPolicy;
import io.quarkus.redis.datasource.stream.PendingMessage;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;

/**
 * Works one queue in this process. Who moves a job along each edge of its life (README, "How a
 * job moves"):
 * <ul>
 * <li>new → running: {@link #pump} reads with XREADGROUP (delivery count 1);</li>
 * <li>running → done / waiting for retry / parked: {@link #finished}, by {@link RetryPolicy#decide};</li>
 * <li>waiting for retry → running: {@link #pollRetries} claims due entries from {@link Consumers#RETRY}.</li>
 * </ul>
 * At most {@code concurrency} handlers run at once; a slot is freed only once the job's outcome
 * is written to Redis, so the PEL never holds more of this process's work than it can finish.
 */
public final class QueueWorker {

    private static final Logger LOG = Logger.getLogger(QueueWorker.class);
    private static final Duration REDIS_ERROR_PAUSE = Duration.ofSeconds(1);

    private final QueueSpec spec;
    private final String consumer;
    private final StreamAccess redis;
    private final DeadLetters deadLetters;
    private final Function<Job, Uni<Void>> handler;
    private final QueueMetrics metrics;
    private final Vertx vertx;
    private final Clock clock;
    private final Batcher acks;
    private final Batcher retries;

    private final Object lock = new Object();
    private final ArrayDeque<Job> ready = new ArrayDeque<>();
    private int running;
    private boolean reading;
    private boolean pollingRetries;
    private String retryCursor = "-";
    private volatile boolean stopped = true;
    private volatile boolean paused;
    private long retryTimer = -1;

    public QueueWorker(QueueSpec spec, String consumer, StreamAccess redis, DeadLetters deadLetters,
            Function<Job, Uni<Void>> handler, QueueMetrics metrics, Vertx vertx, Clock clock) {
        this.spec = spec;
        this.consumer = consumer;
        this.redis = redis;
        this.deadLetters = deadLetters;
        this.handler = handler;
        this.metrics = metrics;
        this.vertx = vertx;
        this.clock = clock;
        this.acks = new Batcher(ids -> redis.ack(spec.stream(), spec.group(), ids),
                (ids, e) -> LOG.errorf(e, "could not ack %d jobs of %s; they stay pending and run again after "
                        + "stall recovery", ids.size(), spec.stream()));
        this.retries = new Batcher(ids -> redis.transfer(spec.stream(), spec.group(), Consumers.RETRY, ids, -1),
                (ids, e) -> LOG.errorf(e, "could not hand %d failed jobs of %s to the retry consumer; they stay "
                        + "pending under %s until stall recovery", ids.size(), spec.stream(), consumer));
    }

    public QueueSpec spec() {
        return spec;
    }

    public String consumer() {
        return consumer;
    }

    public void start() {
        stopped = false;
        retryTimer = vertx.setPeriodic(spec.retryPoll().toMillis(), t -> pollRetries());
        pump();
    }

    /** Stops reading and claiming; running jobs finish on their own. */
    public void stop() {
        stopped = true;
        if (retryTimer >= 0) {
            vertx.cancelTimer(retryTimer);
        }
    }

    /** True once nothing of this worker is running, waiting to run, or being read. */
    public boolean idle() {
        synchronized (lock) {
            return running == 0 && ready.isEmpty() && !reading && !pollingRetries;
        }
    }

    /** Pauses reads and retries (circuit open) or resumes them. */
    public void pause(boolean pause) {
        paused = pause;
        metrics.paused(pause);
        if (!pause) {
            pump();
        }
    }

    public boolean paused() {
        return paused;
    }

    private void pump() {
        List<Job> toStart = new ArrayList<>();
        int count = 0;
        synchronized (lock) {
            while (!ready.isEmpty() && running < spec.concurrency()) {
                toStart.add(ready.poll());
                running++;
            }
            if (!stopped && !paused && !reading && ready.isEmpty()) {
                count = Math.min(spec.batch(), spec.concurrency() - running);
                reading = count > 0;
            }
        }
        toStart.forEach(this::run);
        if (count > 0) {
            read(count);
        }
    }

    private void read(int count) {
        redis.readNew(spec.stream(), spec.group(), consumer, count, spec.block()).subscribe().with(entries -> {
            synchronized (lock) {
                reading = false;
                for (StreamAccess.Entry e : entries) {
                    ready.add(job(e));
                }
            }
            pump();
        }, error -> {
            synchronized (lock) {
                reading = false;
            }
            LOG.warnf("reading %s failed (%s); trying again in %s", spec.stream(), error.getMessage(), REDIS_ERROR_PAUSE);
            vertx.setTimer(REDIS_ERROR_PAUSE.toMillis(), t -> pump());
        });
    }

    private Job job(StreamAccess.Entry e) {
        return new Job(spec.name(), spec.stream(), e.id(), e.deliveryCount(), spec.maxAttempts(), e.fields());
    }

    private void run(Job job) {
        if (stopped) {
            // Read or claimed while shutting down: give it back unspent.
            settle(job, Decision.RELEASE, null, clock.instant());
            return;
        }
        if (!RetryPolicy.mayRun(job.attempt(), job.maxAttempts())) {
            settle(job, Decision.PARK_EXHAUSTED, Failure.overBudget(job.attempt(), job.maxAttempts()), null);
            return;
        }
        Instant startedAt = clock.instant().truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
        long start = System.nanoTime();
        Uni<Void> attempt;
        try {
            attempt = handler.apply(job);
        } catch (RuntimeException e) {
            attempt = Uni.createFrom().failure(e);
        }
        attempt.subscribe().with(
                ok -> finished(job, startedAt, System.nanoTime() - start, null),
                error -> finished(job, startedAt, System.nanoTime() - start, Failure.of(error)));
    }

    private void finished(Job job, Instant startedAt, long nanos, Failure failure) {
        if (failure == null) {
            metrics.completed(nanos);
        } else if (failure.attempted()) {
            metrics.failed(failure.terminal(), nanos);
        }
        settle(job, RetryPolicy.decide(failure, job.attempt(), job.maxAttempts()), failure, startedAt);
    }

    private void settle(Job job, Decision decision, Failure failure, Instant attemptedAt) {
        switch (decision) {
            case ACK -> acks.add(job.id(), this::slotFreed);
            case RETRY_LATER -> retryLater(job, failure);
            case RELEASE -> {
                metrics.released();
                // The delivery that brought it here is taken back: the count it had before.
                redis.transfer(spec.stream(), spec.group(), Consumers.RETRY, List.of(job.id()), job.attempt() - 1)
                        .subscribe().with(ok -> slotFreed(), error -> {
                            LOG.errorf(error, "could not hand back job %s; it stays pending until stall recovery", job.jobId());
                            slotFreed();
                        });
            }
            case PARK_TERMINAL, PARK_EXHAUSTED -> park(job, decision.failureKind(), failure, attemptedAt);
        }
    }

    private void retryLater(Job job, Failure failure) {
        LOG.debugf("attempt %d of %d of job %s failed (%s: %s); it runs again after its backoff", job.attempt(),
                job.maxAttempts(), job.jobId(), failure.errorType(), failure.reason());
        var hint = failure.retryAfterHint();
        if (hint.isPresent()) {
            long notBefore = clock.millis() + hint.get().toMillis();
            redis.rememberNotBefore(spec.stream(), job.id(), notBefore).subscribe().with(
                    ok -> retries.add(job.id(), this::slotFreed),
                    error -> retries.add(job.id(), this::slotFreed));
        } else {
            retries.add(job.id(), this::slotFreed);
        }
    }

    private void park(Job job, String failureKind, Failure failure, Instant attemptedAt) {
        deadLetters.park(spec, job, consumer, failureKind, failure, attemptedAt).subscribe().with(dlqId -> {
            if (dlqId != null) {
                metrics.deadLettered(failureKind);
            }
            slotFreed();
        }, error -> {
            LOG.errorf(error, "could not park job %s; it stays pending and is parked on its next delivery", job.jobId());
            slotFreed();
        });
    }

    private void slotFreed() {
        synchronized (lock) {
            running--;
        }
        pump();
    }

    /**
     * Finds failed entries whose backoff has passed and claims them for this worker. XPENDING
     * walks the retry consumer's entries from a cursor in bounded pages, so a tick costs the
     * same however long the stream or the PEL is.
     */
    void pollRetries() {
        int free;
        String from;
        synchronized (lock) {
            free = spec.concurrency() - running - ready.size();
            if (stopped || paused || pollingRetries || free <= 0) {
                return;
            }
            pollingRetries = true;
            from = retryCursor;
        }
        int page = Math.max(100, free * 4);
        List<StreamAccess.Entry> missing = new ArrayList<>();
        long now = clock.millis();
        redis.pendingOf(spec.stream(), spec.group(), Consumers.RETRY, spec.backoff().shortest(), from, page)
                .flatMap(pending -> {
                    synchronized (lock) {
                        retryCursor = pending.size() < page ? "-" : "(" + pending.get(pending.size() - 1).getMessageId();
                    }
                    List<String> due = new ArrayList<>();
                    for (PendingMessage p : pending) {
                        if (due.size() < free && isDue(p)) {
                            due.add(p.getMessageId());
                        }
                    }
                    if (due.isEmpty()) {
                        return Uni.createFrom().item(List.<StreamAccess.Entry>of());
                    }
                    return redis.claimRetries(spec.stream(), spec.group(), Consumers.RETRY, consumer, now, due, missing);
                })
                .subscribe().with(claimed -> {
                    boolean more;
                    synchronized (lock) {
                        pollingRetries = false;
                        claimed.forEach(e -> ready.add(job(e)));
                        more = !claimed.isEmpty() && claimed.size() >= free;
                    }
                    missing.forEach(this::parkMissing);
                    pump();
                    if (more) {
                        pollRetries();
                    }
                }, error -> {
                    synchronized (lock) {
                        pollingRetries = false;
                    }
                    LOG.warnf("looking for due retries of %s failed: %s", spec.stream(), error.getMessage());
                });
    }

    private boolean isDue(PendingMessage p) {
        Duration delay = spec.backoff().delayBefore(p.getDeliveryCount() + 1, p.getMessageId().hashCode());
        return p.getDurationSinceLastDelivery().compareTo(delay) >= 0;
    }

    private void parkMissing(StreamAccess.Entry e) {
        Job job = new Job(spec.name(), spec.stream(), e.id(), e.deliveryCount(), spec.maxAttempts(), java.util.Map.of());
        synchronized (lock) {
            running++;
        }
        park(job, "missing", Failure.missing(spec.stream()), null);
    }
}
