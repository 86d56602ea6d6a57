package dev.redrive.api;

import java.time.Instant;
import java.util.List;
import java.util.regex.Pattern;

import dev.redrive.deadletter.DeadLetterException;
import dev.redrive.deadletter.EntryFilter;

/** Builds an {@link EntryFilter} from request values, refusing values that could never match. */
final class Filters {

    private static final Pattern FINGERPRINT = Pattern.compile("[0-9a-f]{12}");

    private Filters() {
    }

    static EntryFilter of(String origin, String job, String failure, String fingerprint, Instant deadFrom,
            Instant deadTo, List<String> ids) {
        if (failure != null && !EntryFilter.FAILURE_KINDS.contains(failure)) {
            throw ProblemException.badRequest("unknown failure kind '" + failure + "'; one of " + EntryFilter.FAILURE_KINDS);
        }
        if (fingerprint != null && !FINGERPRINT.matcher(fingerprint).matches()) {
            throw ProblemException.badRequest("a fingerprint is 12 hex digits, as GET /dlq shows (got '" + fingerprint + "')");
        }
        if (deadFrom != null && deadTo != null && !deadFrom.isBefore(deadTo)) {
            throw ProblemException.badRequest("deadFrom must be before deadTo");
        }
        if (ids != null) {
            ids.forEach(Requests::entryId);
        }
        return new EntryFilter(blankToNull(origin), blankToNull(job), failure, fingerprint, deadFrom, deadTo, ids);
    }

    static DeadLetterException gone(String dlq, String id) {
        return new DeadLetterException(DeadLetterException.Reason.GONE, "no entry " + id + " in " + dlq
                + ": it was never parked there, or it was already replayed or discarded (see its audit trail)");
    }

    private static String blankToNull(String s) {
        return s == null || s.isEmpty() ? null : s;
    }
}
