package dev.redrive.worker;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.jboss.logging.Logger;

import dev.redrive.config.QueueSpec;
import dev.redrive.deadletter.DeadLetterWriter;
import dev.redrive.job.Durations;
import dev.redrive.job.Job;
import dev.redrive.job.LogText;
import dev.redrive.job.ReservedField;
import dev.redrive.observe.QueueMetrics;
import dev.redrive.redis.StreamAccess;
import dev.redrive.retry.Failure;
import dev.redrive.time.Timers;

/**
 * Writes what became of a job that is not parked: acked once done, handed to the retry consumer
 * to wait out its backoff, or handed back unspent; one whose entry turned out trimmed on the way
 * is parked as missing ({@link OutcomeListener#trimmed}). Acks and hand-offs of one event-loop turn go
 * out together ({@link Batcher}); the job's slot is freed once its write is answered, so the PEL
 * never holds more of this process's work than it can finish.
 */
final class Outcomes {

    private static final Logger LOG = Logger.getLogger(Outcomes.class);

    private final QueueSpec spec;
    private final StreamAccess redis;
    private final QueueMetrics metrics;
    private final Timers time;
    private final Batcher<String> acks;
    private final Batcher<String> doneReplays;
    private final Batcher<Handoff> retries;
    private final ImmediateRetries atOnce;
    private final OutcomeListener worker;
    /** {@code worker::slotFreed}, built once: a bound method reference is a new object each time it is evaluated. */
    private final Runnable slotFreed;

    /**
     * A failed job on its way to the retry consumer, how long it is to wait there, the ms the
     * provider's Retry-After asked for (-1: none; what is left of it is what transfer.lua adds to
     * Redis' clock), and when it failed, on {@link Timers#elapsedNanos}: both waits count from then.
     */
    private record Handoff(Job job, Failure failure, Instant attemptedAt, long waitMillis, long retryAfterMillis,
            long failedNanos) {
        String id() {
            return job.id();
        }

        /**
         * What is left at {@code nanos} ({@link Timers#elapsedNanos}) of a wait of {@code millis}
         * begun when the job failed. The time gone counts in whole ms less one, so the wait is never
         * cut short: Redis adds what is left to its clock in whole ms, rounded down (a hand-over
         * sent within 2 ms of the failure asks for the whole wait, as before).
         */
        long left(long millis, long nanos) {
            long gone = Math.floorDiv(nanos - failedNanos, 1_000_000L) - 1;
            return gone <= 0 ? millis : Math.max(0, millis - gone);
        }
    }

    Outcomes(QueueSpec spec, String consumer, StreamAccess redis, DeadLetterWriter deadLetters, QueueMetrics metrics,
            Timers time, OutcomeListener worker) {
        this.spec = spec;
        this.redis = redis;
        this.metrics = metrics;
        this.time = time;
        this.worker = worker;
        this.slotFreed = worker::slotFreed;
        this.atOnce = new ImmediateRetries(spec, consumer, redis, worker);
        this.acks = new Batcher<>(ids -> redis.ack(spec.stream(), spec.group(), ids),
                (ids, e) -> LOG.errorf(e, "could not ack %d jobs of %s; they stay pending and run again after "
                        + "stall recovery", ids.size(), spec.stream()), worker::later);
        // A replayed job that is done needs its ledger field no more (only a job parked again does).
        this.doneReplays = new Batcher<>(ids -> deadLetters.forgetReplays(spec.deadLetters(), spec.stream(), ids),
                (ids, e) -> LOG.debugf("could not forget %d done replays of %s (%s); later parks prune them",
                        ids.size(), spec.stream(), e.getMessage()), worker::later);
        // A wait starts when the job failed, not when its hand-over is answered: under a burst the
        // hand-over waits for the one before it (Batcher) and its answer for a busy event loop, and a
        // Retry-After of 200 ms means 200 ms from the provider's answer (bench/README.md, issue 37).
        // What the hand-over asks Redis to wait is what is left of it when the call is sent, and the
        // timer here is set from the send too: one that fires before the not-before on Redis' clock
        // (the script ran later than it was sent) is told by claim.lua how long is left.
        this.retries = new Batcher<>(handoffs -> {
            long sent = time.elapsedNanos();
            return redis.handOver(spec.stream(), spec.group(), Consumers.RETRY,
                    handoffs.stream().map(Handoff::id).toList(), -1, hints(handoffs, sent)).invoke(gone -> {
                        Set<String> trimmedIds = gone.stream().map(StreamAccess.Seen::id).collect(Collectors.toSet());
                        long from = DueRetries.ceilMillis(sent);
                        List<DueRetries.Waiting> waiting = new ArrayList<>(handoffs.size());
                        for (Handoff h : handoffs) {
                            if (trimmedIds.contains(h.id())) {
                                worker.trimmed(h.job(), h.failure(), h.attemptedAt());
                            } else {
                                waiting.add(new DueRetries.Waiting(h.id(), h.job().attempt(),
                                        from + h.left(h.waitMillis(), sent)));
                            }
                        }
                        worker.handedOver(waiting);
                    });
        },
        (ids, e) -> LOG.errorf(e, "could not hand %d failed jobs of %s to the retry consumer; they stay "
                        + "pending under %s until stall recovery", ids.size(), spec.stream(), consumer), worker::later);
    }

    /** Acks the job; a replayed one also leaves the replay ledger. */
    void done(Job job) {
        acks.add(job.id(), slotFreed);
        if (job.fields().containsKey(ReservedField.REPLAY_OF.wireName())) {
            doneReplays.add(job.id(), () -> { });
        }
    }

    /** Hands the job to the retry consumer, after noting the provider's Retry-After when it sent one. */
    void retryLater(Job job, Failure failure, Instant attemptedAt) {
        LOG.debugf("attempt %d of %d of job %s failed (%s: %s); it runs again after its backoff", job.attempt(),
                job.maxAttempts(), job.jobId(), LogText.of(failure.errorType()), LogText.of(failure.reason()));
        long backoff = Durations.toMillis(spec.backoff().delayBefore(job.attempt() + 1, job.id().hashCode()));
        var hint = failure.retryAfterHint().map(asked -> capped(job, asked));
        if (ImmediateRetries.atOnce(backoff, hint.isPresent())) {
            atOnce.add(job, failure, attemptedAt);
            return;
        }
        if (hint.isEmpty()) {
            retries.add(new Handoff(job, failure, attemptedAt, backoff, -1, time.elapsedNanos()), slotFreed);
            return;
        }
        long wait = Durations.toMillis(hint.get());
        retries.add(new Handoff(job, failure, attemptedAt, Math.max(backoff, wait), wait, time.elapsedNanos()), slotFreed);
    }

    /**
     * The provider's hint, at most the queue's {@code max-retry-after}: a date decades away or a
     * number of seconds no one means would otherwise hold the job for good, out of sight.
     */
    private Duration capped(Job job, Duration asked) {
        if (asked.compareTo(spec.maxRetryAfter()) <= 0) {
            return asked;
        }
        LOG.infof("job %s: the provider asked for a retry after %s (Retry-After); it runs again after the queue's "
                + "max-retry-after, %s", job.jobId(), asked, spec.maxRetryAfter());
        return spec.maxRetryAfter();
    }

    /** The Retry-Afters of the batch, each what is left of it at {@code sent}. */
    private static Map<String, Long> hints(List<Handoff> handoffs, long sent) {
        Map<String, Long> hints = new HashMap<>();
        for (Handoff h : handoffs) {
            if (h.retryAfterMillis() >= 0) {
                hints.put(h.id(), h.left(h.retryAfterMillis(), sent));
            }
        }
        return hints;
    }

    /**
     * The handler never ran: the delivery that brought the job here is taken back (a job trimmed
     * meanwhile is parked as missing instead).
     */
    void release(Job job) {
        metrics.released();
        redis.transfer(spec.stream(), spec.group(), Consumers.RETRY, List.of(job.id()), job.attempt() - 1)
                .subscribe().with(gone -> {
                    if (!gone.isEmpty()) {
                        worker.trimmed(job, null, null);
                    }
                    worker.slotFreed();
                }, error -> {
                    LOG.errorf(error, "could not hand back job %s; it stays pending until stall recovery", job.jobId());
                    worker.slotFreed();
                });
    }
}
