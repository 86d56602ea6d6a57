package dev.redrive.retry;

import java.time.Duration;

import dev.redrive.job.Durations;

/**
 * Delay before an attempt: {@code initial * multiplier^(attempt-2)}, capped at {@code max}, minus
 * up to {@code jitter} of itself. The jitter is drawn from a seed (the entry id) rather than a
 * live random source because every retry-scheduler tick, on every replica, must compute the same
 * due time for the same entry.
 */
public record Backoff(Duration initial, double multiplier, Duration max, double jitter) {

    public Backoff {
        if (initial.isNegative() || max.isNegative()) {
            throw new IllegalArgumentException("backoff durations must not be negative");
        }
        if (multiplier < 1) {
            throw new IllegalArgumentException("multiplier must be at least 1");
        }
        if (jitter < 0 || jitter > 1) {
            throw new IllegalArgumentException("jitter must be between 0 and 1");
        }
    }

    public static Backoff exponential(Duration initial, Duration max, double jitter) {
        return new Backoff(initial, 2.0, max, jitter);
    }

    /**
     * @param attempt the attempt about to run (2 is the first retry)
     * @param seed    a stable per-entry value, e.g. the entry id's hash
     */
    public Duration delayBefore(int attempt, long seed) {
        if (attempt <= 1) {
            return Duration.ZERO;
        }
        double base = Durations.toMillis(initial) * Math.pow(multiplier, attempt - 2);
        double capped = Math.min(base, Durations.toMillis(max));
        double share = unitInterval(seed * 31 + attempt);
        return Duration.ofMillis(Math.round(capped * (1 - jitter * share)));
    }

    /** The least delay any retry can get: a lower bound for XPENDING's IDLE filter. */
    public Duration shortest() {
        long first = Math.min(Durations.toMillis(initial), Durations.toMillis(max));
        return Duration.ofMillis((long) Math.floor(first * (1 - jitter)));
    }

    /** SplitMix64 finaliser: a well-spread value in [0, 1) from any seed. */
    static double unitInterval(long seed) {
        long z = seed + 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        z = z ^ (z >>> 31);
        return (z >>> 11) * 0x1.0p-53;
    }
}
