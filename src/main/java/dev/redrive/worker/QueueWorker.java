package dev.redrive.worker;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

import org.jboss.logging.Logger;

import dev.redrive.config.QueueSpec;
import dev.redrive.deadletter.DeadLetterRecord;
import dev.redrive.deadletter.DeadLetters;
import dev.redrive.job.Job;
import dev.redrive.observe.QueueMetrics;
import dev.redrive.redis.DeadLetterScripts;
import dev.redrive.redis.StreamAccess;
import dev.redrive.retry.Decision;
import dev.redrive.retry.Failure;
import dev.redrive.retry.RetryPolicy;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;

/**
 * Works one queue in this process. Who moves a job along each edge of its life (README, "How a
 * job moves"):
 * <ul>
 * <li>new → running: {@link #pump} reads with XREADGROUP (delivery count 1);</li>
 * <li>running → done / waiting for retry / parked: {@link #finished}, by {@link RetryPolicy#decide};</li>
 * <li>waiting for retry → running: {@link RetryScheduler}; stalled → running: {@link StallReclaimer};
 * both hand claimed entries to {@link #offer}.</li>
 * </ul>
 * At most {@code concurrency} handlers run at once; a slot is freed only once the job's outcome
 * is written to Redis, so the PEL never holds more of this process's work than it can finish.
 */
public final class QueueWorker {

    private static final Logger LOG = Logger.getLogger(QueueWorker.class);
    private static final Duration REDIS_ERROR_PAUSE = Duration.ofSeconds(1);

    /** Whether the queue takes work: paused while its circuit is open, one probe at a time after. */
    enum Gate {
        OPEN, PAUSED, PROBING
    }

    private final QueueSpec spec;
    private final String consumer;
    private final StreamAccess redis;
    private final DeadLetters deadLetters;
    private final Function<Job, Uni<Void>> handler;
    private final QueueMetrics metrics;
    private final Vertx vertx;
    private final Clock clock;
    private final Batcher<String> acks;
    private final Batcher<String> doneReplays;
    private final Batcher<String> retries;
    private final Batcher<DeadLetterRecord> parks;

    /** The field replay.lua writes into every entry it replays. */
    private static final String REPLAY_OF = "replay-of";

    private final Object lock = new Object();
    private final ArrayDeque<Job> ready = new ArrayDeque<>();
    private final Set<String> runningIds = ConcurrentHashMap.newKeySet();
    private int running;
    private boolean reading;
    private boolean pumpScheduled;
    private volatile boolean stopped = true;
    private volatile Gate gate = Gate.OPEN;
    private volatile Runnable slotsFreed = () -> { };

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
        this.acks = new Batcher<>(ids -> redis.ack(spec.stream(), spec.group(), ids),
                (ids, e) -> LOG.errorf(e, "could not ack %d jobs of %s; they stay pending and run again after "
                        + "stall recovery", ids.size(), spec.stream()), this::later);
        // A replayed job that is done needs its ledger field no more (only a job parked again does).
        this.doneReplays = new Batcher<>(ids -> deadLetters.forgetReplays(spec.deadLetters(), spec.stream(), ids),
                (ids, e) -> LOG.debugf("could not forget %d done replays of %s (%s); later parks prune them",
                        ids.size(), spec.stream(), e.getMessage()), this::later);
        this.retries = new Batcher<>(ids -> redis.transfer(spec.stream(), spec.group(), Consumers.RETRY, ids, -1),
                (ids, e) -> LOG.errorf(e, "could not hand %d failed jobs of %s to the retry consumer; they stay "
                        + "pending under %s until stall recovery", ids.size(), spec.stream(), consumer), this::later);
        // A job dead-letter.lua could not park stays pending: DeadLetters logs and counts it, and
        // the rest of its batch is parked all the same.
        this.parks = new Batcher<>(records -> deadLetters.parkAll(spec.name(), spec.deadLetters(), records, null)
                .invoke(outcomes -> countParked(records, outcomes)),
                (records, e) -> LOG.errorf(e, "could not park %d jobs of %s; nothing was written, they stay pending "
                        + "and are parked on their next delivery", records.size(), spec.stream()), this::later);
    }

    private void countParked(List<DeadLetterRecord> records, List<DeadLetterScripts.Parked> outcomes) {
        for (int i = 0; i < outcomes.size(); i++) {
            if (outcomes.get(i).id() != null) {
                metrics.deadLettered(records.get(i).failureKind());
            }
        }
    }

    public QueueSpec spec() {
        return spec;
    }

    public String consumer() {
        return consumer;
    }

    public void start() {
        stopped = false;
        pump();
    }

    /** Stops reading and claiming; running jobs finish on their own. */
    public void stop() {
        stopped = true;
    }

    /** True once nothing of this worker is running, waiting to run, or being read. */
    public boolean idle() {
        synchronized (lock) {
            return running == 0 && ready.isEmpty() && !reading;
        }
    }

    /** Closes the gate while the circuit is open; {@link #probe} and {@link #resume} reopen it. */
    public void pause() {
        gate = Gate.PAUSED;
        metrics.paused(true);
    }

    /** Lets one job through at a time: the circuit breaker decides with it whether the provider is back. */
    public void probe() {
        gate = Gate.PROBING;
        pump();
    }

    public void resume() {
        gate = Gate.OPEN;
        metrics.paused(false);
        pump();
    }

    public boolean paused() {
        return gate != Gate.OPEN;
    }

    /** Slots the retry scheduler and stall reclaimer may fill now. */
    int freeSlots() {
        if (stopped || gate == Gate.PAUSED) {
            return 0;
        }
        synchronized (lock) {
            return limit() - running - ready.size();
        }
    }

    private int limit() {
        return gate == Gate.PROBING ? 1 : spec.concurrency();
    }

    /** Ids of the jobs whose handler is running now: what the heartbeat renews. */
    List<String> runningIds() {
        return new ArrayList<>(runningIds);
    }

    boolean isRunning(String id) {
        return runningIds.contains(id);
    }

    /** Called once per batch of freed slots: the retry scheduler fills them when due retries wait. */
    void onSlotsFreed(Runnable listener) {
        this.slotsFreed = listener;
    }

    /** Runs claimed entries (retries due, stalled jobs) as soon as slots allow. */
    void offer(List<StreamAccess.Entry> entries) {
        synchronized (lock) {
            entries.forEach(e -> ready.add(job(e)));
        }
        pump();
    }

    private void pump() {
        List<Job> toStart = new ArrayList<>();
        int count = 0;
        synchronized (lock) {
            int limit = limit();
            while (!ready.isEmpty() && (running < limit || stopped || gate == Gate.PAUSED)) {
                // When stopped or paused, ready jobs are "started" only to be handed back unspent.
                toStart.add(ready.poll());
                running++;
            }
            if (!stopped && gate != Gate.PAUSED && !reading && ready.isEmpty()) {
                count = Math.min(spec.batch(), limit - running);
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
        Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
        if (stopped || gate == Gate.PAUSED) {
            settle(job, Decision.RELEASE, null, now);
            return;
        }
        if (!RetryPolicy.mayRun(job.attempt(), job.maxAttempts())) {
            settle(job, Decision.PARK_EXHAUSTED, Failure.overBudget(job.attempt(), job.maxAttempts()), null);
            return;
        }
        runningIds.add(job.id());
        long start = System.nanoTime();
        Uni<Void> attempt;
        try {
            attempt = handler.apply(job);
        } catch (RuntimeException e) {
            attempt = Uni.createFrom().failure(e);
        }
        attempt.subscribe().with(
                ok -> finished(job, now, System.nanoTime() - start, null),
                error -> finished(job, now, System.nanoTime() - start, Failure.of(error)));
    }

    private void finished(Job job, Instant startedAt, long nanos, Failure failure) {
        runningIds.remove(job.id());
        if (failure == null) {
            metrics.completed(nanos);
        } else if (failure.attempted()) {
            metrics.failed(failure.terminal(), nanos);
        }
        settle(job, RetryPolicy.decide(failure, job.attempt(), job.maxAttempts()), failure, startedAt);
    }

    private void settle(Job job, Decision decision, Failure failure, Instant attemptedAt) {
        switch (decision) {
            case ACK -> {
                acks.add(job.id(), this::slotFreed);
                if (job.fields().containsKey(REPLAY_OF)) {
                    doneReplays.add(job.id(), () -> { });
                }
            }
            case RETRY_LATER -> retryLater(job, failure);
            case RELEASE -> release(job);
            case PARK_TERMINAL, PARK_EXHAUSTED -> park(job, consumer, decision.failureKind(), failure, attemptedAt);
        }
    }

    private void retryLater(Job job, Failure failure) {
        LOG.debugf("attempt %d of %d of job %s failed (%s: %s); it runs again after its backoff", job.attempt(),
                job.maxAttempts(), job.jobId(), failure.errorType(), failure.reason());
        var hint = failure.retryAfterHint();
        if (hint.isEmpty()) {
            retries.add(job.id(), this::slotFreed);
            return;
        }
        redis.rememberNotBefore(spec.stream(), job.id(), clock.millis() + hint.get().toMillis())
                .subscribe().with(ok -> retries.add(job.id(), this::slotFreed), error -> retries.add(job.id(), this::slotFreed));
    }

    /** The handler never ran: the delivery that brought the job here is taken back. */
    private void release(Job job) {
        metrics.released();
        redis.transfer(spec.stream(), spec.group(), Consumers.RETRY, List.of(job.id()), job.attempt() - 1)
                .subscribe().with(ok -> slotFreed(), error -> {
                    LOG.errorf(error, "could not hand back job %s; it stays pending until stall recovery", job.jobId());
                    slotFreed();
                });
    }

    /**
     * Parks with the other jobs that failed in the same turn; a job naming a redrive task goes alone,
     * so the script can count it against that task if redrive's ledger confirms the task sent it.
     */
    private void park(Job job, String owner, String failureKind, Failure failure, Instant attemptedAt) {
        DeadLetterRecord record = deadLetters.record(spec, job, owner, failureKind, failure, attemptedAt);
        String redriveTask = deadLetters.redriveTask(job, spec.stream());
        if (redriveTask == null) {
            parks.add(record, this::slotFreed);
            return;
        }
        deadLetters.parkAll(spec.name(), spec.deadLetters(), List.of(record), redriveTask).subscribe().with(outcomes -> {
            countParked(List.of(record), outcomes);
            slotFreed();
        }, error -> {
            LOG.errorf(error, "could not park job %s; nothing was written, it stays pending and is parked on its "
                    + "next delivery", job.jobId());
            slotFreed();
        });
    }

    /** Parks a pending entry whose stream entry is gone, with what is still known of it. */
    void parkMissing(StreamAccess.Seen seen) {
        Job job = new Job(spec.name(), spec.stream(), seen.id(), seen.deliveryCount(), spec.maxAttempts(), Map.of());
        synchronized (lock) {
            running++;
        }
        park(job, seen.owner(), "missing", Failure.missing(spec.stream()), null);
    }

    private void slotFreed() {
        boolean schedule;
        synchronized (lock) {
            running--;
            schedule = !pumpScheduled;
            pumpScheduled = true;
        }
        if (schedule) {
            // Slots come free a batch at a time (one XACK or hand-off answers for all its jobs): pump
            // once after the batch, so the next read asks for all of them rather than for one.
            later(() -> {
                synchronized (lock) {
                    pumpScheduled = false;
                }
                pump();
                slotsFreed.run();
            });
        }
    }

    /** Runs a task after the current event-loop turn (on this thread's context, or a new one). */
    private void later(Runnable task) {
        vertx.getOrCreateContext().runOnContext(task);
    }
}
