package dev.redrive.api;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Failed logins by user and by client address, and how long each must wait before its next try:
 * after {@code free} failures the next try waits {@code lockout} after the last failure, doubled
 * by each further failure up to {@code maxLockout}; a try during the wait is refused unchecked. A success clears its user (not its address: one account of the
 * attacker's own must not reset the address's count); failures are forgotten {@code forgetAfter}
 * the last one. The wait is the longer of the user's and the address's. At most {@code tracked}
 * keys are kept: past it the least recently failed is forgotten, so memory is bounded whatever
 * an attacker sends (forgetting errs toward letting a guess through, never toward a lockout).
 * The clock is given, so tests step time instead of waiting; it is a monotonic one (nanoseconds,
 * {@code System.nanoTime} in production), so a wall clock set back an hour stretches no lockout.
 */
public final class LoginFailures {

    /** Limits of one kind of key (users, or addresses). */
    public record Limits(int free, Duration lockout, Duration maxLockout, Duration forgetAfter) {
    }

    /** {@code last}: the last failure on the monotonic clock, in nanoseconds. */
    private record Count(int failures, long last) {
    }

    private final LongSupplier nanos;
    private final Limits perUser;
    private final Limits perAddress;
    private final Map<String, Count> counts;

    /** @param nanos the monotonic clock, in nanoseconds: only differences are read */
    public LoginFailures(LongSupplier nanos, Limits perUser, Limits perAddress, int tracked) {
        this.nanos = nanos;
        this.perUser = perUser;
        this.perAddress = perAddress;
        this.counts = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Count> eldest) {
                return size() > tracked;
            }
        };
    }

    /** How long {@code user} (null when not known yet) from {@code address} must still wait; zero when they may try. */
    public synchronized Duration wait(String user, String address) {
        long now = nanos.getAsLong();
        Duration byAddress = wait(addressKey(address), perAddress, now);
        Duration byUser = user == null ? Duration.ZERO : wait(userKey(user), perUser, now);
        return byUser.compareTo(byAddress) > 0 ? byUser : byAddress;
    }

    /** Counts a failure; returns the wait it sets from now (zero while failures are still free). */
    public synchronized Duration failed(String user, String address) {
        long now = nanos.getAsLong();
        count(addressKey(address), perAddress, now);
        if (user != null) {
            count(userKey(user), perUser, now);
        }
        return wait(user, address);
    }

    public synchronized void succeeded(String user) {
        counts.remove(userKey(user));
    }

    /** Forgets every failure: what a restart does, and what a test does after itself. */
    public synchronized void clear() {
        counts.clear();
    }

    public synchronized int tracked() {
        return counts.size();
    }

    private void count(String key, Limits limits, long now) {
        Count before = counts.get(key);
        boolean fresh = before == null || !before(now, before.last(), limits.forgetAfter());
        counts.put(key, new Count(fresh ? 1 : saturatedIncrement(before.failures()), now));
    }

    private Duration wait(String key, Limits limits, long now) {
        Count c = counts.get(key);
        if (c == null || c.failures() < limits.free()) {
            return Duration.ZERO;
        }
        if (!before(now, c.last(), limits.forgetAfter())) {
            counts.remove(key);
            return Duration.ZERO;
        }
        Duration left = lockout(c.failures() - limits.free() + 1, limits).minusNanos(now - c.last());
        return left.isNegative() ? Duration.ZERO : left;
    }

    /** Whether {@code now} is less than {@code span} after {@code last} (nanoseconds; spans are at most days). */
    private static boolean before(long now, long last, Duration span) {
        return now - last < span.toNanos();
    }

    /** lockout * 2^(over-1), capped, without overflowing however many failures there were. */
    static Duration lockout(int over, Limits limits) {
        Duration lock = limits.lockout();
        for (int i = 1; i < over && lock.compareTo(limits.maxLockout()) < 0; i++) {
            lock = lock.multipliedBy(2);
        }
        return lock.compareTo(limits.maxLockout()) > 0 ? limits.maxLockout() : lock;
    }

    private static int saturatedIncrement(int n) {
        return n == Integer.MAX_VALUE ? n : n + 1;
    }

    private static String userKey(String user) {
        return "user:" + user;
    }

    private static String addressKey(String address) {
        return "address:" + address;
    }
}
