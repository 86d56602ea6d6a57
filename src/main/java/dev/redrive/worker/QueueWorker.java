package dev.redrive.worker;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;

import dev.redrive.config.QueueSpec;
import dev.redrive.deadletter.DeadLetterWriter;
import dev.redrive.job.Job;
import dev.redrive.observe.QueueMetrics;
import dev.redrive.redis.BlockingReader;
import dev.redrive.redis.StreamAccess;
import dev.redrive.retry.Decision;
import dev.redrive.retry.Failure;
import dev.redrive.retry.FailureKind;
import dev.redrive.retry.RetryPolicy;
import dev.redrive.trace.AttemptSpan;
import dev.redrive.trace.QueueTracer;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;

/**
 * Works one queue in this process. Who moves a job along each edge of its life (README, "How a
 * job moves"):
 * <ul>
 * <li>new → running: {@link #pump} reads with XREADGROUP (delivery count 1): at once on the shared
 * pool while the stream has entries, else by waiting in the group's {@link BlockingReader};</li>
 * <li>running → done / waiting for retry / parked: {@link #run}, by {@link RetryPolicy#decide};
 * {@link Outcomes} and {@link Parking} write the move;</li>
 * <li>waiting for retry → running: {@link RetryScheduler}; stalled → running: {@link StallReclaimer};
 * both hand claimed entries to {@link #offer}.</li>
 * </ul>
 * At most {@code concurrency} handlers run at once; a slot is freed only once the job's outcome
 * is written to Redis, so the PEL never holds more of this process's work than it can finish.
 */
public final class QueueWorker {


    /** Whether the queue takes work: paused while its circuit is open, one probe at a time after. */
    enum Gate {
        OPEN, PAUSED, PROBING
    }

    private final QueueSpec spec;
    private final String consumer;
    private final NewEntries reads;
    private final Attempts attempts;
    private final QueueMetrics metrics;
    private final Vertx vertx;
    private final Clock clock;
    private final Outcomes outcomes;
    private final Parking parking;
    private final Settlement settlement;
    private final QueueTracer tracer; // null when tracing is off: nothing of it is built per job

    private final Slots slots = new Slots();
    private volatile boolean stopped = true;
    private volatile Gate gate = Gate.OPEN;
    private volatile Runnable slotsFreed = () -> { };
    private volatile Consumer<List<DueRetries.Waiting>> handedOver = waiting -> { };

    public QueueWorker(QueueSpec spec, String consumer, StreamAccess redis, BlockingReader reader,
            DeadLetterWriter deadLetters, Function<Job, Uni<Void>> handler, QueueMetrics metrics, Vertx vertx,
            Clock clock, QueueTracer tracer) {
        this.spec = spec;
        this.consumer = consumer;
        this.reads = new NewEntries(spec, consumer, redis, reader, vertx);
        this.attempts = new Attempts(handler, metrics);
        this.metrics = metrics;
        this.vertx = vertx;
        this.clock = clock;
        this.outcomes = new Outcomes(spec, consumer, redis, deadLetters, metrics, clock, this::later, this::slotFreed,
                waiting -> handedOver.accept(waiting), this::offer, this::parkTrimmed);
        this.parking = new Parking(spec, deadLetters, metrics, this::later, this::slotFreed);
        this.settlement = new Settlement(consumer, outcomes, parking);
        this.tracer = tracer;
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
        reads.stopWaiting();
    }

    /** True once nothing of this worker is running, waiting to run, or being read. */
    public boolean idle() {
        return slots.idle();
    }

    /** Closes the gate while the circuit is open; {@link #probe} and {@link #resume} reopen it. */
    public void pause() {
        gate = Gate.PAUSED;
        metrics.paused(true);
        reads.stopWaiting();
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
        return slots.free(limit());
    }

    private int limit() {
        return gate == Gate.PROBING ? 1 : spec.concurrency();
    }

    /** Ids of the jobs whose handler is running now: what the heartbeat renews. */
    List<String> runningIds() {
        return attempts.ids();
    }

    boolean isRunning(String id) {
        return attempts.isRunning(id);
    }

    /** Called once per batch of freed slots: the retry scheduler fills them when due retries wait. */
    void onSlotsFreed(Runnable listener) {
        this.slotsFreed = listener;
    }

    /** Called with the jobs handed to the retry consumer, once Redis confirmed it: the retry scheduler times them. */
    void onHandedOver(Consumer<List<DueRetries.Waiting>> listener) {
        this.handedOver = listener;
    }

    /** Runs claimed entries (retries due, stalled jobs) as soon as slots allow. */
    void offer(List<StreamAccess.Entry> entries) {
        slots.offer(entries.stream().map(this::job).toList());
        pump();
    }

    private void pump() {
        // When stopped or paused, ready jobs are "started" only to be handed back unspent.
        boolean drain = stopped || gate == Gate.PAUSED;
        Slots.Turn turn = slots.take(limit(), drain, !drain, spec.batch());
        turn.start().forEach(this::run);
        turn.reads().forEach(this::read);
    }

    private void read(Slots.Read read) {
        reads.read(read.count(), read.mayWait() ? () -> !stopped && gate != Gate.PAUSED : () -> false,
                entries -> readAnswered(read.count(), entries), this::pump);
    }

    private void readAnswered(int count, List<StreamAccess.Entry> entries) {
        slots.read(count, entries.stream().map(this::job).toList());
        pump();
    }

    private Job job(StreamAccess.Entry e) {
        return new Job(spec.name(), spec.stream(), e.id(), e.deliveryCount(), spec.maxAttempts(), e.fields());
    }

    private void run(Job job) {
        Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
        AttemptSpan span = tracer == null ? null : tracer.start(job);
        if (stopped || gate == Gate.PAUSED) {
            settlement.settle(job, Decision.RELEASE, null, now, span);
            return;
        }
        if (!RetryPolicy.mayRun(job.attempt(), job.maxAttempts())) {
            Failure over = Failure.overBudget(job.attempt(), job.maxAttempts());
            settlement.settle(job, Decision.PARK_EXHAUSTED, over, null, span);
            return;
        }
        attempts.run(job, span, failure -> settlement.settle(job,
                RetryPolicy.decide(failure, job.attempt(), job.maxAttempts()), failure, now, span));
    }

    /** Parks a pending entry whose stream entry is gone, with what is still known of it. */
    void parkMissing(StreamAccess.Seen seen) {
        Job job = new Job(spec.name(), spec.stream(), seen.id(), seen.deliveryCount(), spec.maxAttempts(), Map.of());
        parkMissing(job, seen.owner(), null, null);
    }

    /** Parks a job of this process whose entry turned out trimmed when its outcome was written. */
    private void parkTrimmed(Job job, Failure last, Instant attemptedAt) {
        parkMissing(job, consumer, last, attemptedAt);
    }

    /** The park holds a slot of its own: it frees one once answered, as every park does. */
    private void parkMissing(Job job, String owner, Failure last, Instant attemptedAt) {
        slots.hold();
        parking.park(job, owner, FailureKind.MISSING, Failure.missing(spec.stream(), last), attemptedAt, null);
    }

    private void slotFreed() {
        if (slots.release()) {
            // Slots come free a batch at a time (one XACK or hand-off answers for all its jobs): pump
            // once after the batch, so the next read asks for all of them rather than for one.
            later(() -> {
                slots.pumping();
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
