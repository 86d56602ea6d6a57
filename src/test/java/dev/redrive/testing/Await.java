package dev.redrive.testing;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Waits for an outcome instead of sleeping for a guess: polls the condition and fails with a
 * description when the bound passes. The bound is a safety net, not a speed assertion.
 */
public final class Await {

    /**
     * How long any test waits for an outcome: long enough for a loaded build machine, and only
     * ever reached when something is broken.
     */
    public static final Duration BOUND = Duration.ofSeconds(60);

    private Await() {
    }

    public static void until(String what, BooleanSupplier condition) {
        until(what, BOUND, condition);
    }

    public static <T> T value(String what, Supplier<T> probe) {
        return value(what, BOUND, probe);
    }

    public static void until(String what, Duration bound, BooleanSupplier condition) {
        long deadline = System.nanoTime() + bound.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + bound + " waiting for " + what);
            }
            java.util.concurrent.locks.LockSupport.parkNanos(10_000_000L);
        }
    }

    public static <T> T value(String what, Duration bound, Supplier<T> probe) {
        Object[] holder = new Object[1];
        until(what, bound, () -> (holder[0] = probe.get()) != null);
        @SuppressWarnings("unchecked")
        T t = (T) holder[0];
        return t;
    }
}
