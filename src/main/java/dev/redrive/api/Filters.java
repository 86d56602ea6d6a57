package dev.redrive.api;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

import jakarta.ws.rs.core.UriInfo;

import dev.redrive.deadletter.DeadLetterException;
import dev.redrive.deadletter.EntryFilter;

/**
 * Builds an {@link EntryFilter} from request values, for listings and redrives alike. It fails
 * closed: a value that is given must select something, so an empty id list, an empty name or a
 * time bound a record's dead-at can't hold is a 400, never "any".
 */
public final class Filters {

    private static final Pattern FINGERPRINT = Pattern.compile("[0-9a-f]{12}");

    /**
     * The instants a dead-at can hold: lib/filter.lua compares them as text of four-digit years, so
     * a bound outside would compare wrongly (+10000-... sorts before 2026-...).
     */
    private static final Instant EARLIEST = Instant.parse("0000-01-01T00:00:00Z");
    private static final Instant LATEST = Instant.parse("9999-12-31T23:59:59.999999999Z");

    private Filters() {
    }

    /** The longest text a filter searches for in reasons and error types. */
    static final int MAX_TEXT = 200;

    /** Every argument may be null (criterion not given); {@code ids} null means any id. */
    public static EntryFilter of(String origin, String job, String failure, String fingerprint, String deadFrom,
            String deadTo, List<String> ids, String text) {
        given("origin", origin);
        given("job", job);
        given("text", text);
        if (text != null && text.length() > MAX_TEXT) {
            throw ProblemException.badRequest("text is limited to " + MAX_TEXT + " characters");
        }
        if (failure != null && !EntryFilter.FAILURE_KINDS.contains(failure)) {
            throw ProblemException.badRequest("unknown failure kind '" + failure + "'; one of " + EntryFilter.FAILURE_KINDS);
        }
        if (fingerprint != null && !FINGERPRINT.matcher(fingerprint).matches()) {
            throw ProblemException.badRequest("a fingerprint is 12 hex digits, as GET /dlq shows (got '" + fingerprint + "')");
        }
        Instant from = instant("deadFrom", deadFrom);
        Instant to = instant("deadTo", deadTo);
        if (from != null && to != null && !from.isBefore(to)) {
            throw ProblemException.badRequest("deadFrom must be before deadTo");
        }
        if (ids != null) {
            if (ids.isEmpty()) {
                throw ProblemException.badRequest("ids is empty, which would select nothing; leave ids out to select any id");
            }
            ids.forEach(Requests::entryId);
        }
        return new EntryFilter(origin, job, failure, fingerprint, from, to, ids, text);
    }

    /**
     * Refuses a filter parameter given with no value (?origin=): JAX-RS hands it over as if it
     * were absent, which would select any.
     */
    public static void refuseEmptyParams(UriInfo uri, String... names) {
        for (String name : names) {
            List<String> values = uri.getQueryParameters().get(name);
            if (values != null) {
                values.forEach(v -> given(name, v == null ? "" : v));
            }
        }
    }

    /** Ids as a listing takes them, comma-separated; null when the parameter is absent. */
    public static List<String> idList(String commaSeparated) {
        return commaSeparated == null ? null
                : commaSeparated.isEmpty() ? List.of() : Arrays.asList(commaSeparated.split(",", -1));
    }

    public static DeadLetterException gone(String dlq, String id) {
        return new DeadLetterException(DeadLetterException.Reason.GONE, "no entry " + id + " in " + dlq
                + ": it was never parked there, or it was already replayed or discarded (see its audit trail)");
    }

    private static void given(String name, String value) {
        if (value != null && value.isEmpty()) {
            throw ProblemException.badRequest(name + " is empty, which would select nothing; leave it out to select any");
        }
    }

    private static Instant instant(String name, String value) {
        if (value == null) {
            return null;
        }
        Instant at;
        try {
            at = Instant.parse(value);
        } catch (DateTimeParseException e) {
            throw ProblemException.badRequest(name + " must be an ISO-8601 instant such as 2024-05-01T12:00:00Z (got '"
                    + value + "')");
        }
        if (at.isBefore(EARLIEST) || at.isAfter(LATEST)) {
            throw ProblemException.badRequest(name + " must be from " + EARLIEST + " to " + LATEST + " (got " + value + ")");
        }
        return at;
    }
}
