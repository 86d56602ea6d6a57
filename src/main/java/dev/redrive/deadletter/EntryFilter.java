package dev.redrive.deadletter;

import java.time.Instant;
import java.util.List;
import java.util.Set;

/**
 * Which dead letters a listing or a redrive means. Every criterion that is set must match; an
 * empty filter matches all.
 *
 * @param deadFrom inclusive
 * @param deadTo   exclusive
 * @param ids      dead-letter entry ids; empty means any
 */
public record EntryFilter(String origin, String job, String failure, String fingerprint, Instant deadFrom,
        Instant deadTo, List<String> ids) {

    /** The failure kinds dead-letter.lua counts (see its header). */
    public static final Set<String> FAILURE_KINDS = Set.of("terminal", "exhausted", "missing", "max-receive");

    public static final EntryFilter ALL = new EntryFilter(null, null, null, null, null, null, List.of());

    public EntryFilter {
        ids = ids == null ? List.of() : List.copyOf(ids);
    }

    public boolean matches(DeadLetterEntry e) {
        if (origin != null && !origin.equals(e.originStream())) {
            return false;
        }
        if (job != null && !job.equals(e.job())) {
            return false;
        }
        if (failure != null && !failure.equals(e.failure())) {
            return false;
        }
        if (fingerprint != null && !fingerprint.equals(e.fingerprint())) {
            return false;
        }
        if (!ids.isEmpty() && !ids.contains(e.id())) {
            return false;
        }
        if (deadFrom != null || deadTo != null) {
            Instant dead = e.deadAt();
            if (dead == null || deadFrom != null && dead.isBefore(deadFrom) || deadTo != null && !dead.isBefore(deadTo)) {
                return false;
            }
        }
        return true;
    }
}
