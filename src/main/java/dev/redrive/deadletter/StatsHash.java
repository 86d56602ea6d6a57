package dev.redrive.deadletter;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A dead-letter stream's stats hash as read (every field {@link StatsField} names), turned into
 * the counts of a {@link DeadLetterSummary}: by origin, failure kind, and cause with its origins,
 * jobs, first and last park and latest entry, and the parks of the last five minutes and 24 hours.
 */
final class StatsHash {

    private static final DateTimeFormatter MINUTE = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm").withZone(ZoneOffset.UTC);
    private static final int RECENT_MINUTES = 5;

    final Map<String, Long> byOrigin = new TreeMap<>();
    final Map<String, Long> byFailure = new TreeMap<>();
    private final Map<String, Long> byFingerprint = new TreeMap<>();
    private final Map<String, String> texts = new HashMap<>();
    private final Map<String, String> first = new HashMap<>();
    private final Map<String, String> last = new HashMap<>();
    private final Map<String, String> samples = new HashMap<>();
    private final Map<String, Map<String, Long>> origins = new HashMap<>();
    private final Map<String, Map<String, Long>> jobs = new HashMap<>();
    private final Map<String, Long> minutes = new HashMap<>();
    private final Map<String, Long> hours = new HashMap<>();
    private final Map<String, Map<String, Long>> causeHours = new HashMap<>();

    StatsHash(Map<String, String> stats) {
        stats.forEach((field, value) -> StatsField.parse(field).ifPresent(counted -> {
            String key = counted.key();
            switch (counted.field()) {
                case ORIGIN -> byOrigin.put(key, count(value));
                case FAILURE -> byFailure.put(key, count(value));
                case FINGERPRINT -> byFingerprint.put(key, count(value));
                case FINGERPRINT_TEXT -> texts.put(key, value);
                case FINGERPRINT_FIRST -> first.put(key, value);
                case FINGERPRINT_LAST -> last.put(key, value);
                case FINGERPRINT_SAMPLE -> samples.put(key, value);
                case FINGERPRINT_ORIGIN -> perFingerprint(origins, key, value);
                case FINGERPRINT_JOB -> perFingerprint(jobs, key, value);
                case PARKED_MINUTE -> slot(minutes, value);
                case PARKED_HOUR -> slot(hours, value);
                case FINGERPRINT_HOUR -> causeHour(key, value);
                case PARKED -> {
                    // the depth comes from XLEN, which can't drift
                }
            }
        }));
    }

    /** The causes, most dead letters first, with their parks of the 24 hours up to {@code clock}'s. */
    List<DeadLetterSummary.Cause> causes(Clock clock) {
        List<DeadLetterSummary.Cause> causes = new ArrayList<>();
        byFingerprint.forEach((fp, n) -> causes.add(new DeadLetterSummary.Cause(fp, texts.getOrDefault(fp, ""), n,
                instant(first.get(fp)), instant(last.get(fp)), samples.get(fp),
                origins.getOrDefault(fp, Map.of()), jobs.getOrDefault(fp, Map.of()),
                ParksPerHour.of(causeHours.getOrDefault(fp, Map.of()), clock))));
        causes.sort(Comparator.comparingLong(DeadLetterSummary.Cause::count).reversed());
        return causes;
    }

    /** Parks in the minute of {@code clock} and the four before it. */
    long parkedRecently(Clock clock) {
        Instant now = clock.instant().truncatedTo(ChronoUnit.MINUTES);
        long n = 0;
        for (int back = 0; back < RECENT_MINUTES; back++) {
            n += minutes.getOrDefault(MINUTE.format(now.minus(back, ChronoUnit.MINUTES)), 0L);
        }
        return n;
    }

    /** The stream's parks in the 24 hours up to {@code clock}'s. */
    ParksPerHour parkedPerHour(Clock clock) {
        return ParksPerHour.of(hours, clock);
    }

    /** A ring slot's {@code <minute or hour> <n>}. */
    private static void slot(Map<String, Long> into, String value) {
        int space = value.indexOf(' ');
        if (space > 0) {
            into.put(value.substring(0, space), count(value.substring(space + 1)));
        }
    }

    /** A {@code <fingerprint>:<HH>} slot: the hour's count goes under its stamp, as for the stream. */
    private void causeHour(String key, String value) {
        String fp = fingerprintOf(key);
        if (fp != null) {
            slot(causeHours.computeIfAbsent(fp, k -> new HashMap<>()), value);
        }
    }

    private static void perFingerprint(Map<String, Map<String, Long>> into, String key, String value) {
        String fp = fingerprintOf(key);
        if (fp != null) {
            into.computeIfAbsent(fp, k -> new TreeMap<>()).put(key.substring(StatsField.FINGERPRINT_LENGTH + 1), count(value));
        }
    }

    /**
     * The fingerprint of a {@code <fingerprint>:<name>} key (the fingerprint has a fixed length, the
     * name may hold colons), or null when the key is not one.
     */
    private static String fingerprintOf(String key) {
        return key.length() > StatsField.FINGERPRINT_LENGTH && key.charAt(StatsField.FINGERPRINT_LENGTH) == StatsField.SEPARATOR
                ? key.substring(0, StatsField.FINGERPRINT_LENGTH)
                : null;
    }

    private static Instant instant(String value) {
        if (value == null) {
            return null;
        }
        try {
            return Instant.parse(value);
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    private static long count(String value) {
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
