package dev.redrive.deadletter;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Parks per hour by their dead-at, over the last {@value #HOURS} hours: oldest hour first, the last
 * being the hour now running. Read from the ring of hours kept beside the stream (24 fields, whatever
 * the depth), so it counts parks whether or not those dead letters are still there; a cause's ring
 * is dropped with its count once it has no dead letters left.
 *
 * @param from   the start of the first hour (UTC)
 * @param counts parks in each hour, {@value #HOURS} of them
 */
public record ParksPerHour(Instant from, List<Long> counts) {

    /** As many hours as the ring holds. */
    public static final int HOURS = 24;

    /** How a ring slot names its hour ({@code <YYYY-MM-DDTHH>}, as lib/counters.lua cuts it from dead-at). */
    static final DateTimeFormatter HOUR = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH").withZone(ZoneOffset.UTC);

    public ParksPerHour {
        counts = List.copyOf(counts);
    }

    /** The last {@value #HOURS} hours up to {@code clock}'s, from counts keyed by {@link #HOUR}. */
    static ParksPerHour of(Map<String, Long> byHour, Clock clock) {
        Instant from = clock.instant().truncatedTo(ChronoUnit.HOURS).minus(HOURS - 1, ChronoUnit.HOURS);
        List<Long> counts = new ArrayList<>(HOURS);
        for (int h = 0; h < HOURS; h++) {
            counts.add(byHour.getOrDefault(HOUR.format(from.plus(h, ChronoUnit.HOURS)), 0L));
        }
        return new ParksPerHour(from, counts);
    }

    /** Parks over the whole window. */
    public long total() {
        return counts.stream().mapToLong(Long::longValue).sum();
    }
}
