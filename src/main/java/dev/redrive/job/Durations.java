package dev.redrive.job;

import java.time.Duration;

/**
 * Durations as milliseconds, saturating instead of overflowing. {@link Duration#toMillis()} throws
 * {@code ArithmeticException} past about 292 million years, and {@code long} sums wrap around:
 * a provider's {@code Retry-After: 9223372036854775807} or a typo in config must give "as long as
 * can be", never an exception on a worker's path (which would leave a job running with no one
 * moving it) nor a time in the past.
 */
public final class Durations {

    private Durations() {
    }

    /** {@code d} in milliseconds, {@link Long#MAX_VALUE} (or MIN_VALUE) where it would overflow. */
    public static long toMillis(Duration d) {
        try {
            return d.toMillis();
        } catch (ArithmeticException tooLong) {
            return d.isNegative() ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
    }

    /** {@code a + b}, held at {@link Long#MAX_VALUE} or MIN_VALUE where it would overflow. */
    public static long plus(long a, long b) {
        long sum = a + b;
        // Overflow only when both operands share a sign the sum lacks (Math.addExact's test).
        if (((a ^ sum) & (b ^ sum)) < 0) {
            return a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
        return sum;
    }

    /** The shorter of the two. */
    public static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }
}
