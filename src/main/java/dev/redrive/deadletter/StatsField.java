package dev.redrive.deadletter;

import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The counters kept beside a dead-letter stream (its stats hash), the one place redrive spells
 * them. The scripts that park, replay and discard keep them; the summary reads them. A field is
 * {@code parked}, or a kind and a key joined by a colon ({@code failure:exhausted},
 * {@code origin:orders}, {@code fingerprint:<id>}, {@code fingerprint-text:<id>}); keys may hold
 * colons themselves, kinds never do, so a field splits at its first colon.
 */
public enum StatsField {
    /** Entries in the stream. */
    PARKED("parked", false),
    /** Entries per failure kind. */
    FAILURE("failure", true),
    /** Entries per origin stream. */
    ORIGIN("origin", true),
    /** Entries per fingerprint of the cause. */
    FINGERPRINT("fingerprint", true),
    /** A fingerprint's normalised text (not a count), kept while any entry has that fingerprint. */
    FINGERPRINT_TEXT("fingerprint-text", true),
    /** Entries per fingerprint and origin stream: the key is {@code <fingerprint>:<origin>}. */
    FINGERPRINT_ORIGIN("fingerprint-origin", true),
    /** Entries per fingerprint and job name: the key is {@code <fingerprint>:<job>}. */
    FINGERPRINT_JOB("fingerprint-job", true),
    /** The dead-at of a fingerprint's first park since it last had no entries (not a count). */
    FINGERPRINT_FIRST("fingerprint-first", true),
    /** The dead-at of a fingerprint's latest park (not a count). */
    FINGERPRINT_LAST("fingerprint-last", true),
    /** The entry id of a fingerprint's latest park (not a count; that entry may since have gone). */
    FINGERPRINT_SAMPLE("fingerprint-sample", true),
    /**
     * Parks in one minute, keyed by its minute of the hour ({@code 00}..{@code 59}); the value is
     * {@code <YYYY-MM-DDTHH:MM> <n>}, so a slot of an older minute is told apart (not a count).
     */
    PARKED_MINUTE("parked-minute", true),
    /**
     * Parks in one hour, keyed by its hour of the day ({@code 00}..{@code 23}); the value is
     * {@code <YYYY-MM-DDTHH> <n>}, so a slot of an older day is told apart (not a count).
     */
    PARKED_HOUR("parked-hour", true),
    /** The same per fingerprint: the key is {@code <fingerprint>:<HH>}; dropped with the fingerprint's count. */
    FINGERPRINT_HOUR("fingerprint-hour", true);

    public static final char SEPARATOR = ':';

    /** A fingerprint's length: the key of a per-fingerprint count splits after it. */
    public static final int FINGERPRINT_LENGTH = 12;

    private static final Map<String, StatsField> BY_NAME = Arrays.stream(values())
            .collect(Collectors.toUnmodifiableMap(StatsField::kind, Function.identity()));

    private final String kind;
    private final boolean keyed;

    StatsField(String kind, boolean keyed) {
        this.kind = kind;
        this.keyed = keyed;
    }

    /** The field's name, or for a keyed field the part before the colon. */
    public String kind() {
        return kind;
    }

    /** True when the field is one per key ({@code <kind>:<key>}). */
    public boolean keyed() {
        return keyed;
    }

    /** The stored name of this field for {@code key} (unkeyed fields take none). */
    public String field(String key) {
        if (!keyed) {
            throw new IllegalArgumentException(kind + " takes no key");
        }
        return kind + SEPARATOR + key;
    }

    /** One field of a stats hash, as read. */
    public record Parsed(StatsField field, String key) {
    }

    /** What a stored field counts; empty for a field redrive does not keep. */
    public static Optional<Parsed> parse(String stored) {
        int at = stored.indexOf(SEPARATOR);
        StatsField f = BY_NAME.get(at < 0 ? stored : stored.substring(0, at));
        if (f == null || f.keyed != (at >= 0)) {
            return Optional.empty();
        }
        return Optional.of(new Parsed(f, at < 0 ? null : stored.substring(at + 1)));
    }
}
