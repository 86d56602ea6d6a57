package dev.redrive.worker;

import java.time.Instant;
import java.util.List;
import java.util.function.Consumer;

import org.jboss.logging.Logger;

import dev.redrive.config.QueueSpec;
import dev.redrive.deadletter.DeadLetterRecord;
import dev.redrive.deadletter.DeadLetterWriter;
import dev.redrive.job.Job;
import dev.redrive.observe.QueueMetrics;
import dev.redrive.redis.DeadLetterScripts;
import dev.redrive.retry.Failure;

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
    private final Batcher<DeadLetterRecord> parks;

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
        this.parks = new Batcher<>(records -> deadLetters.parkAll(spec.name(), spec.deadLetters(), records, null)
                .invoke(outcomes -> countParked(records, outcomes)),
                (records, e) -> LOG.errorf(e, "could not park %d jobs of %s; nothing was written, they stay pending "
                        + "and are parked on their next delivery", records.size(), spec.stream()), later);
    }

    /**
     * Parks with the other jobs that failed in the same turn; a job naming a redrive task goes alone,
     * so the script can count it against that task if redrive's ledger confirms the task sent it.
     */
    void park(Job job, String owner, String failureKind, Failure failure, Instant attemptedAt) {
        DeadLetterRecord record = deadLetters.record(spec, job, owner, failureKind, failure, attemptedAt);
        String redriveTask = deadLetters.redriveTask(job, spec.stream());
        if (redriveTask == null) {
            parks.add(record, slotFreed);
            return;
        }
        deadLetters.parkAll(spec.name(), spec.deadLetters(), List.of(record), redriveTask).subscribe().with(outcomes -> {
            countParked(List.of(record), outcomes);
            slotFreed.run();
        }, error -> {
            LOG.errorf(error, "could not park job %s; nothing was written, it stays pending and is parked on its "
                    + "next delivery", job.jobId());
            slotFreed.run();
        });
    }

    private void countParked(List<DeadLetterRecord> records, List<DeadLetterScripts.Parked> outcomes) {
        for (int i = 0; i < outcomes.size(); i++) {
            if (outcomes.get(i).id() != null) {
                metrics.deadLettered(records.get(i).failureKind());
            }
        }
    }
}
