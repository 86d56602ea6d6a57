package dev.redrive.deadletter;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * One dead-letter stream at a glance, built from its length, its first and last entry and the
 * counters beside it: the cost does not grow with the depth.
 */
public record DeadLetterSummary(String name, long depth, Instant oldestDeadAt, Instant newestDeadAt,
        Map<String, Long> byOrigin, Map<String, Long> byFailure, List<Cause> byFingerprint) {

    /** A group of dead letters with the same normalised cause. */
    public record Cause(String fingerprint, String text, long count) {
    }
}
