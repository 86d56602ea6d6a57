package dev.redrive.deadletter;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.redrive.config.QueueSpec;
import dev.redrive.retry.FailureKind;

/**
 * A queue's provider outage as one process saw it end: from the first transient failure after the
 * queue's last success until it was over: its circuit breaker closed again and a call succeeded
 * since it opened, whichever came later. worker/Workers reports it (a CDI event) then;
 * redrive/OutageProposals proposes the redrive of what it parked (README, "After an outage").
 * <p>
 * The two moments are on the reporting process's monotonic clock ({@code time/Timers.elapsedNanos}),
 * not a wall clock: whoever acts on them turns them into Redis' time (its TIME less the time
 * elapsed since), so a replica whose wall clock is off still names the right dead letters, whose
 * ids are Redis' milliseconds.
 *
 * @param errorTypes how many transient failures of each error type the outage saw, in the order
 *                   first seen (at most a few types; the rest counted under {@link #OTHER})
 */
public record Outage(QueueSpec queue, long firstFailureNanos, long endedNanos, Map<String, Integer> errorTypes) {

    /** Where error types past the first few are counted. */
    public static final String OTHER = "other";

    public Outage {
        errorTypes = Collections.unmodifiableMap(new LinkedHashMap<>(errorTypes));
    }

    /**
     * The dead letters of {@code ids} the outage parked: the queue's jobs whose attempts it spent
     * with transient failures ({@link FailureKind#EXHAUSTED}), never its terminal failures, which
     * a redrive can't help.
     */
    public EntryFilter exhausted(List<String> ids) {
        return new EntryFilter(queue.stream(), null, FailureKind.EXHAUSTED.wireName(), null, null, null, ids, null);
    }
}
