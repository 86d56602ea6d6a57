package dev.redrive.worker;

import java.time.Instant;

import dev.redrive.job.Job;
import dev.redrive.retry.Decision;
import dev.redrive.retry.Failure;

/**
 * Writes what the retry policy decided for an attempt ({@link Outcomes} or {@link Parking}) and,
 * with tracing on, ends the attempt's span: a failure's write runs inside the span, so its log
 * lines carry the attempt's trace.
 */
final class Settlement {

    private final String consumer;
    private final Outcomes outcomes;
    private final Parking parking;

    Settlement(String consumer, Outcomes outcomes, Parking parking) {
        this.consumer = consumer;
        this.outcomes = outcomes;
        this.parking = parking;
    }

    void settle(Job job, Decision decision, Failure failure, Instant attemptedAt, AttemptTrace trace) {
        if (decision == Decision.ACK) {
            write(job, decision, failure, attemptedAt, trace);
        } else {
            trace.run(() -> write(job, decision, failure, attemptedAt, trace));
        }
        trace.end(decision, failure);
    }

    private void write(Job job, Decision decision, Failure failure, Instant attemptedAt, AttemptTrace trace) {
        switch (decision) {
            case ACK -> outcomes.done(job);
            case RETRY_LATER -> outcomes.retryLater(job, failure, attemptedAt);
            case RELEASE -> outcomes.release(job);
            case PARK_TERMINAL, PARK_EXHAUSTED -> parking.park(job, consumer, decision.failureKind(), failure,
                    attemptedAt, trace);
        }
    }
}
