package dev.redrive.testing;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Waits for an outcome instead of sleeping for a guess: polls the condition and fails with a
 * description when the bound passes. The bound is a safety net, not a speed assertion.
 */
public final class Await {

    private Await() {
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
