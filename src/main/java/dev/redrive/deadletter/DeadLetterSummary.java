package dev.redrive.deadletter;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * One dead-letter stream at a glance, built from its length, its first and last entry and the
 * counters beside it: the cost does not grow with the depth.
 *
 * @param parkedLastFiveMinutes jobs parked into the stream in the current minute and the four before it
 *        (by their dead-at), whether or not they are still there
 * @param parkedPerHour jobs parked into the stream in each of the last 24 hours, the same way
 */
public record DeadLetterSummary(String name, long depth, Instant oldestDeadAt, Instant newestDeadAt,
        Map<String, Long> byOrigin, Map<String, Long> byFailure, List<Cause> byFingerprint, long parkedLastFiveMinutes,
        ParksPerHour parkedPerHour) {

    /**
     * A group of dead letters with the same normalised cause.
     *
     * @param firstSeen dead-at of the first of them parked since the cause last had none (null when not known:
     *        parked by a version that did not keep it)
     * @param lastSeen  dead-at of the latest of them
     * @param sample    id of the latest of them; it may have been replayed or discarded since
     * @param byOrigin  how many of them came from each origin stream
     * @param byJob     how many of them per job name
     * @param parkedPerHour parks of this cause in each of the last 24 hours (kept while it has dead letters)
     */
    public record Cause(String fingerprint, String text, long count, Instant firstSeen, Instant lastSeen, String sample,
            Map<String, Long> byOrigin, Map<String, Long> byJob, ParksPerHour parkedPerHour) {
    }
}
