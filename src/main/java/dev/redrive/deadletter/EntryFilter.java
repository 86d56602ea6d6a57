package dev.redrive.deadletter;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import dev.redrive.retry.FailureKind;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * Which dead letters a listing or a redrive means. Every criterion that is set must match; an
 * empty filter matches all. The API builds filters that fail closed (api/Filters): it refuses an
 * empty id list or name and a bound outside years 0000-9999 rather than let them mean "any".
 *
 * @param deadFrom inclusive; years 0000 to 9999, as lib/filter.lua compares them as text
 * @param deadTo   exclusive; years 0000 to 9999
 * @param ids      dead-letter entry ids; null or empty means any
 * @param text     text to find in the reason or the error type, case-insensitive; null means any
 */
// A redrive task stores its filter as JSON (redrive/RedriveTaskStore), outside any REST signature:
// a native image has its record constructor and accessors only when registered.
@RegisterForReflection
public record EntryFilter(String origin, String job, String failure, String fingerprint, Instant deadFrom,
        Instant deadTo, List<String> ids, String text) {

    /** The values {@code failure} takes: the failure kinds' names, in their order. */
    public static final List<String> FAILURE_KINDS = Arrays.stream(FailureKind.values()).map(FailureKind::wireName)
            .toList();

    public static final EntryFilter ALL = new EntryFilter(null, null, null, null, null, null, List.of(), null);

    private static final DateTimeFormatter COMPARABLE =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSSSSS").withZone(ZoneOffset.UTC);

    public EntryFilter {
        ids = ids == null ? List.of() : List.copyOf(ids);
        text = text == null || text.isEmpty() ? null : text.toLowerCase(Locale.ROOT);
    }

    /**
     * The filter as the scripts take it (lib/filter.lua applies it, so a listing, a count and a
     * redrive agree): origin, job, failure, fingerprint, dead from, dead to, ids, text; '' means any.
     */
    public List<String> scriptArgs() {
        return List.of(orEmpty(origin), orEmpty(job), orEmpty(failure), orEmpty(fingerprint), comparable(deadFrom),
                comparable(deadTo), String.join(",", ids), orEmpty(text));
    }

    /** An instant as lib/filter.lua compares them: fixed-width text, nine fraction digits, UTC. */
    static String comparable(Instant at) {
        return at == null ? "" : COMPARABLE.format(at);
    }

    private static String orEmpty(String s) {
        return s == null ? "" : s;
    }
}
