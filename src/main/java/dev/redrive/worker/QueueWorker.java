package dev.redrive.worker;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import dev.redrive.config.QueueSpec;
import dev.redrive.deadletter.DeadLetterWriter;
import dev.redrive.job.Job;
import dev.redrive.observe.QueueMetrics;
import dev.redrive.redis.BlockingReader;
import dev.redrive.redis.StreamAccess;
import dev.redrive.redis.StreamInfo;
import dev.redrive.retry.Decision;
import dev.redrive.retry.Failure;
import dev.redrive.retry.FailureKind;
import dev.redrive.retry.RetryPolicy;
import dev.redrive.time.Timers;
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
 * the worker starts and stops both, and both hand what they claimed to {@link #took}.</li>
 * </ul>
 * The classes that write outcomes report back through the one seam {@link OutcomeListener}.
 * At most {@code concurrency} handlers run at once; a slot is freed only once the job's outcome
 * is written to Redis, so the PEL never holds more of this process's work than it can finish.
 */
final class QueueWorker implements OutcomeListener {

    private static final StreamAccess.Claimed NOTHING = new StreamAccess.Claimed(List.of(), List.of(), List.of());

    private final QueueSpec spec;
    private final String consumer;
    private final StreamAccess redis;
    private final NewEntries reads;
    private final Attempts attempts;
    private final QueueMetrics metrics;
    private final Vertx vertx;
    private final Timers time;
    private final Outcomes outcomes;
    private final Parking parking;
    private final Settlement settlement;
    private final Function<Job, AttemptTrace> traces;
    private final RetryScheduler retries;
    private final StallReclaimer stalls;
    /** Told how each attempt ended: when the queue's outage began, and whether the provider answers again. */
    private final OutageWatch outage;

    private final Slots slots = new Slots();
    private volatile boolean stopped = true;
    /** Whether the queue takes work: paused while its circuit is open, one probe at a time after. */
    private volatile GateState gate = GateState.OPEN;

    QueueWorker(QueueSpec spec, String consumer, StreamAccess redis, BlockingReader reader,
            DeadLetterWriter deadLetters, Function<Job, Uni<Void>> handler, QueueMetrics metrics, Vertx vertx,
            Timers time, QueueTracer tracer, OutageWatch outage) {
        this.spec = spec;
        this.consumer = consumer;
        this.redis = redis;
        this.reads = new NewEntries(spec, consumer, redis, reader, time);
        this.attempts = new Attempts(handler, metrics);
        this.metrics = metrics;
        this.vertx = vertx;
        this.time = time;
        this.outcomes = new Outcomes(spec, consumer, redis, deadLetters, metrics, time, this);
        this.parking = new Parking(spec, deadLetters, metrics, this);
        this.settlement = new Settlement(consumer, outcomes, parking);
        this.traces = AttemptTrace.starter(tracer);
        this.outage = outage;
        // Last: both keep this worker, whose fields are all set by now, and use it once started.
        this.retries = new RetryScheduler(this, redis, time);
        this.stalls = new StallReclaimer(this, redis, time);
    }

    QueueSpec spec() {
        return spec;
    }

    String consumer() {
        return consumer;
    }

    /** Starts reading, and the retry scheduler and stall reclaimer with it. */
    void start() {
        stopped = false;
        pump();
        retries.start();
        stalls.start();
    }

    /** Stops reading and claiming; running jobs finish on their own. */
    void stop() {
        stopped = true;
        reads.stopWaiting();
        retries.stop();
        stalls.stop();
    }

    /** Each round's figures of the queue: its pending summary tells the scheduler and the reclaimer whether to look. */
    void observe(StreamInfo.Figures figures) {
        retries.observe(figures.pendingByConsumer().getOrDefault(Consumers.RETRY, 0L));
        stalls.observe(figures.pendingByConsumer());
    }

    /** True once nothing of this worker is running, waiting to run, or being read. */
    boolean idle() {
        return slots.idle();
    }

    /** Closes the gate while the circuit is open; {@link #probe} and {@link #resume} reopen it. */
    void pause() {
        move(GateState.Event.CIRCUIT_OPENED);
        metrics.paused(true);
        reads.stopWaiting();
    }

    /** Lets one job through at a time: the circuit breaker decides with it whether the provider is back. */
    void probe() {
        move(GateState.Event.PROBE_DUE);
        pump();
    }

    void resume() {
        move(GateState.Event.CIRCUIT_CLOSED);
        metrics.paused(false);
        pump();
    }

    boolean paused() {
        return gate.paused();
    }

    /** The breaker's callback and the probe timer run on different threads: one move at a time. */
    private synchronized void move(GateState.Event event) {
        gate = gate.next(event);
    }

    /** Slots the retry scheduler and stall reclaimer may fill now. */
    int freeSlots() {
        if (stopped || !gate.takesWork()) {
            return 0;
        }
        return slots.free(limit());
    }

    private int limit() {
        return gate.limit(spec.concurrency());
    }

    /** Ids of the jobs whose handler is running now: what the heartbeat renews. */
    List<String> runningIds() {
        return attempts.ids();
    }

    boolean isRunning(String id) {
        return attempts.isRunning(id);
    }

    /** Runs entries as soon as slots allow. */
    private void offer(List<StreamAccess.Entry> entries) {
        slots.offer(entries.stream().map(this::job).toList());
        pump();
    }

    private void pump() {
        // When stopped or paused, ready jobs are "started" only to be handed back unspent.
        boolean drain = stopped || !gate.takesWork();
        Slots.Turn turn = slots.take(limit(), drain, !drain, spec.batch());
        turn.start().forEach(this::run);
        turn.reads().forEach(this::read);
    }

    private void read(Slots.Read read) {
        reads.read(read.count(), read.mayWait() ? () -> !stopped && gate.takesWork() : () -> false,
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
        Instant now = time.now();
        AttemptTrace trace = traces.apply(job);
        if (stopped || !gate.takesWork()) {
            settlement.settle(job, Decision.RELEASE, null, now, trace);
            return;
        }
        if (!RetryPolicy.mayRun(job.attempt(), job.maxAttempts())) {
            Failure over = Failure.overBudget(job.attempt(), job.maxAttempts());
            settlement.settle(job, Decision.PARK_EXHAUSTED, over, null, trace);
            return;
        }
        attempts.run(job, trace, failure -> {
            outage.attempted(failure);
            settlement.settle(job, RetryPolicy.decide(failure, job.attempt(), job.maxAttempts()), failure, now, trace);
        });
    }

    /**
     * Claims pending entries for this worker with claim.lua: each only if still pending under the
     * owner seen, with the delivery count seen, idle at least {@code minIdle}. {@link #took} runs
     * what it claimed.
     */
    Uni<StreamAccess.Claimed> claim(List<StreamAccess.Seen> seen, Duration minIdle) {
        if (seen.isEmpty()) {
            return Uni.createFrom().item(NOTHING);
        }
        return redis.claim(spec.stream(), spec.group(), consumer, minIdle, seen);
    }

    /**
     * Runs what a claim took (retries due, stalled jobs) as soon as slots allow, and parks the
     * entries it found trimmed as missing, with what is still known of them.
     */
    void took(StreamAccess.Claimed claimed) {
        for (StreamAccess.Seen seen : claimed.gone()) {
            Job job = new Job(spec.name(), spec.stream(), seen.id(), seen.deliveryCount(), spec.maxAttempts(), Map.of());
            parkMissing(job, seen.owner(), null, null);
        }
        offer(claimed.entries());
    }

    @Override
    public void runAgain(List<StreamAccess.Entry> entries) {
        offer(entries);
    }

    @Override
    public void handedOver(List<DueRetries.Waiting> waiting) {
        retries.handedOver(waiting);
    }

    @Override
    public void trimmed(Job job, Failure last, Instant attemptedAt) {
        parkMissing(job, consumer, last, attemptedAt);
    }

    /** The park holds a slot of its own: it frees one once answered, as every park does. */
    private void parkMissing(Job job, String owner, Failure last, Instant attemptedAt) {
        slots.hold();
        parking.park(job, owner, FailureKind.MISSING, Failure.missing(spec.stream(), last), attemptedAt, AttemptTrace.NONE);
    }

    @Override
    public void slotFreed() {
        if (slots.release()) {
            // Slots come free a batch at a time (one XACK or hand-off answers for all its jobs): pump
            // once after the batch, so the next read asks for all of them rather than for one.
            later(() -> {
                slots.pumping();
                pump();
                retries.slotsFreed();
            });
        }
    }

    /** Runs a task after the current event-loop turn (on this thread's context, or a new one). */
    @Override
    public void later(Runnable task) {
        vertx.getOrCreateContext().runOnContext(task);
    }
}
