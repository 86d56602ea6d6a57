package dev.redrive.worker;

import java.time.Instant;
import java.util.List;

import org.jboss.logging.Logger;

import dev.redrive.config.QueueSpec;
import dev.redrive.deadletter.DeadLetterWriter;
import dev.redrive.job.Job;
import dev.redrive.observe.QueueMetrics;
import dev.redrive.retry.Failure;
import dev.redrive.retry.FailureKind;
import io.smallrye.mutiny.Uni;

/**
 * Parks a queue's failed jobs, together with the others that failed in the same event-loop turn
 * (one dead-letter.lua call for the batch). A job dead-letter.lua could not park stays pending:
 * {@link DeadLetterWriter} logs and counts it, and the rest of its batch is parked all the same.
 */
final class Parking {

    private static final Logger LOG = Logger.getLogger(Parking.class);

    private final QueueSpec spec;
    private final DeadLetterWriter deadLetters;
    private final QueueMetrics metrics;
    private final OutcomeListener worker;
    /** {@code worker::slotFreed}, built once: a bound method reference is a new object each time it is evaluated. */
    private final Runnable slotFreed;
    private final Batcher<Held> parks;

    /** A job to park, and the trace of the attempt that parks it: the parked counter's exemplar. */
    private record Held(DeadLetterWriter.ToPark job, AttemptTrace trace) {
    }

    Parking(QueueSpec spec, DeadLetterWriter deadLetters, QueueMetrics metrics, OutcomeListener worker) {
        this.spec = spec;
        this.deadLetters = deadLetters;
        this.metrics = metrics;
        this.worker = worker;
        this.slotFreed = worker::slotFreed;
        this.parks = new Batcher<>(this::parkAll,
                (batch, e) -> LOG.errorf(e, "could not park %d jobs of %s; nothing was written, they stay pending "
                        + "and are parked on their next delivery", batch.size(), spec.stream()), worker::later);
    }

    /** Parks with the other jobs that failed in the same turn, jobs that a redrive sent back among them. */
    void park(Job job, String owner, FailureKind failureKind, Failure failure, Instant attemptedAt, AttemptTrace trace) {
        parks.add(new Held(new DeadLetterWriter.ToPark(job, owner, failureKind, failure, attemptedAt,
                trace.traceparent()), trace), slotFreed);
    }

    private Uni<?> parkAll(List<Held> batch) {
        return deadLetters.parkJobs(spec, batch.stream().map(Held::job).toList())
                .invoke(outcomes -> countParked(batch, outcomes));
    }

    private void countParked(List<Held> batch, List<DeadLetterWriter.Parked> outcomes) {
        for (int i = 0; i < outcomes.size(); i++) {
            if (outcomes.get(i).id() != null) {
                String kind = outcomes.get(i).record().failureKind();
                batch.get(i).trace().run(() -> metrics.deadLettered(kind));
            }
        }
    }
}
