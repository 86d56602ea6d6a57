package dev.redrive.retry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import org.junit.jupiter.api.Test;

class BackoffTest {

    final Backoff noJitter = Backoff.exponential(Duration.ofMillis(1000), Duration.ofMinutes(5), 0);

    @Test
    void firstAttemptHasNoDelayAndRetriesDoubleFromTheBase() {
        assertEquals(Duration.ZERO, noJitter.delayBefore(1, 42));
        assertEquals(Duration.ofMillis(1000), noJitter.delayBefore(2, 42));
        assertEquals(Duration.ofMillis(2000), noJitter.delayBefore(3, 42));
        assertEquals(Duration.ofMillis(4000), noJitter.delayBefore(4, 42));
    }

    /** Durations past what millis can hold (a typo in config) saturate instead of overflowing. */
    @Test
    void durationsTooLongForMillisNeitherOverflowNorThrow() {
        Duration huge = Duration.ofDays(999_999_999_999L);
        Backoff absurd = Backoff.exponential(huge, huge, 0);
        assertEquals(Duration.ofMillis(Long.MAX_VALUE), absurd.shortest());
        assertEquals(Duration.ofMillis(Long.MAX_VALUE), absurd.delayBefore(3, 42));
    }

    @Test
    void delayIsCappedAtTheMaximum() {
        assertEquals(Duration.ofMinutes(5), noJitter.delayBefore(30, 42));
        assertEquals(Duration.ofMinutes(5), noJitter.delayBefore(500, 42));
    }

    @Test
    void jitterTakesAtMostItsShareAndIsStablePerSeed() {
        Backoff jittered = Backoff.exponential(Duration.ofMillis(1000), Duration.ofMinutes(5), 0.2);
        long distinct = java.util.stream.LongStream.range(0, 200)
                .map(seed -> jittered.delayBefore(3, seed).toMillis())
                .peek(ms -> assertTrue(ms >= 1600 && ms <= 2000, "delay " + ms))
                .distinct().count();
        assertTrue(distinct > 50, "jitter spreads retries (" + distinct + " distinct delays)");
        assertEquals(jittered.delayBefore(3, 7), jittered.delayBefore(3, 7), "same seed, same delay");
        assertEquals(Duration.ofMillis(800), jittered.shortest());
    }

    @Test
    void zeroBaseMeansImmediateRetries() {
        Backoff zero = Backoff.exponential(Duration.ZERO, Duration.ofMinutes(5), 0.2);
        assertEquals(Duration.ZERO, zero.delayBefore(4, 1));
        assertEquals(Duration.ZERO, zero.shortest());
    }

    @Test
    void rejectsNonsense() {
        assertThrows(IllegalArgumentException.class, () -> Backoff.exponential(Duration.ofMillis(-1), Duration.ZERO, 0));
        assertThrows(IllegalArgumentException.class, () -> Backoff.exponential(Duration.ZERO, Duration.ZERO, 1.5));
    }
}
