package dev.redrive.worker;

import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

import org.jboss.logging.Logger;

import dev.redrive.config.QueueSpec;
import dev.redrive.deadletter.DeadLetterRecord;
import dev.redrive.deadletter.DeadLetterWriter;
import dev.redrive.job.Job;
import dev.redrive.observe.QueueMetrics;
import dev.redrive.retry.Failure;
import dev.redrive.retry.FailureKind;
import dev.redrive.trace.AttemptSpan;
import io.smallrye.mutiny.Uni;

/**
 * Parks a queue's failed jobs, together with the others that failed in the same event-loop turn
 * (one dead-letter.lua call for the batch). A job dead-letter.lua could not park stays pending:
 * {@link DeadLetterWriter} logs and counts it, and the rest of its batch is parked all the same.
 */
final class Parking {

    /** Logged under QueueWorker, as before parking had a class of its own. */
    private static final Logger LOG = Logger.getLogger(QueueWorker.class);

    private final QueueSpec spec;
    private final DeadLetterWriter deadLetters;
    private final QueueMetrics metrics;
    private final Runnable slotFreed;
    private final Batcher<ToPark> parks;

    /**
     * A record to park, the redrive task its job's field names (null for none), and the span of
     * the attempt that parks it (null when tracing is off), which the parked counter's exemplar names.
     */
    private record ToPark(DeadLetterRecord record, String redriveTask, AttemptSpan span) {
    }

    /**
     * @param later     runs a task after the current event-loop turn
     * @param slotFreed called once per job whose park is answered (or failed)
     */
    Parking(QueueSpec spec, DeadLetterWriter deadLetters, QueueMetrics metrics, Consumer<Runnable> later,
            Runnable slotFreed) {
        this.spec = spec;
        this.deadLetters = deadLetters;
        this.metrics = metrics;
        this.slotFreed = slotFreed;
        this.parks = new Batcher<>(this::parkAll,
                (batch, e) -> LOG.errorf(e, "could not park %d jobs of %s; nothing was written, they stay pending "
                        + "and are parked on their next delivery", batch.size(), spec.stream()), later);
    }

    /**
     * Parks with the other jobs that failed in the same turn, jobs that a redrive sent back among
     * them: the call names each redrive task once, and the script counts a job against its task
     * only if redrive's ledger confirms the task sent it.
     */
    void park(Job job, String owner, FailureKind kind, Failure failure, Instant attemptedAt, AttemptSpan span) {
        DeadLetterRecord record = deadLetters.record(spec, job, owner, kind, failure, attemptedAt);
        if (span != null) {
            record = record.withLastAttemptTrace(span.traceparent());
        }
        parks.add(new ToPark(record, deadLetters.redriveTask(job, spec.stream()), span), slotFreed);
    }

    private Uni<?> parkAll(List<ToPark> batch) {
        List<DeadLetterRecord> records = batch.stream().map(ToPark::record).toList();
        Set<String> tasks = new LinkedHashSet<>();
        batch.forEach(p -> {
            if (p.redriveTask() != null) {
                tasks.add(p.redriveTask());
            }
        });
        return deadLetters.parkAll(spec.name(), spec.deadLetters(), records, tasks)
                .invoke(outcomes -> countParked(batch, outcomes));
    }

    private void countParked(List<ToPark> batch, List<DeadLetterWriter.Parked> outcomes) {
        for (int i = 0; i < outcomes.size(); i++) {
            if (outcomes.get(i).id() != null) {
                String kind = outcomes.get(i).record().failureKind();
                AttemptSpan span = batch.get(i).span();
                if (span == null) {
                    metrics.deadLettered(kind);
                } else {
                    span.run(() -> metrics.deadLettered(kind));
                }
            }
        }
    }
}
