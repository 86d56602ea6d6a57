package dev.redrive.job;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.time.temporal.ChronoUnit;

import org.junit.jupiter.api.Test;

/** Conversions and sums of durations saturate at the ends of {@code long} instead of throwing or wrapping. */
class DurationsTest {

    @Test
    void aDurationTooLongForMillisIsTheLongestMillis() {
        assertEquals(Long.MAX_VALUE, Durations.toMillis(Duration.ofSeconds(Long.MAX_VALUE)));
        assertEquals(Long.MAX_VALUE, Durations.toMillis(Duration.of(999_999_999_999L, ChronoUnit.DAYS)));
        assertEquals(Long.MIN_VALUE, Durations.toMillis(Duration.ofSeconds(Long.MIN_VALUE)));
    }

    @Test
    void anOrdinaryDurationIsItsMillis() {
        assertEquals(1500, Durations.toMillis(Duration.ofMillis(1500)));
        assertEquals(31_536_000_000_000L, Durations.toMillis(Duration.ofSeconds(31_536_000_000L)));
        assertEquals(0, Durations.toMillis(Duration.ZERO));
    }

    @Test
    void aSumPastEitherEndStaysAtThatEnd() {
        assertEquals(Long.MAX_VALUE, Durations.plus(1_700_000_000_000L, Long.MAX_VALUE));
        assertEquals(Long.MAX_VALUE, Durations.plus(Long.MAX_VALUE, Long.MAX_VALUE));
        assertEquals(Long.MIN_VALUE, Durations.plus(-5, Long.MIN_VALUE));
        assertEquals(7, Durations.plus(3, 4));
        assertEquals(-1, Durations.plus(Long.MAX_VALUE, Long.MIN_VALUE));
    }
}
