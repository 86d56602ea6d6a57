package dev.redrive.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import dev.redrive.testing.SettableClock;

/** The wait after failed logins, stepped with a settable clock: grows, is capped, ends, and a success clears the user. */
class LoginFailuresTest {

    static final LoginFailures.Limits USER = new LoginFailures.Limits(3, Duration.ofSeconds(1), Duration.ofSeconds(8),
            Duration.ofMinutes(15));
    static final LoginFailures.Limits ADDRESS = new LoginFailures.Limits(10, Duration.ofSeconds(1), Duration.ofSeconds(8),
            Duration.ofMinutes(15));

    final SettableClock clock = new SettableClock();

    @Test
    void afterTheFreeFailuresEachTryWaitsLongerUpToTheCapAndTheWaitEnds() {
        LoginFailures f = new LoginFailures(clock::monotonicNanos, USER, ADDRESS, 1000);
        for (int i = 0; i < 2; i++) {
            assertEquals(Duration.ZERO, f.failed("ann", "10.0.0.1"));
        }
        assertEquals(Duration.ZERO, f.wait("ann", "10.0.0.1"));
        assertEquals(Duration.ofSeconds(1), waitRounded(f.failed("ann", "10.0.0.1")), "the third failure: 1s");
        assertTrue(f.wait("ann", "10.0.0.9").compareTo(Duration.ZERO) > 0, "from any address");
        assertEquals(Duration.ZERO, f.wait("bob", "10.0.0.1"), "another user from the same address may still try");
        clock.advance(Duration.ofSeconds(1));
        assertEquals(Duration.ZERO, f.wait("ann", "10.0.0.1"), "the wait ends");
        assertEquals(Duration.ofSeconds(2), waitRounded(f.failed("ann", "10.0.0.1")));
        clock.advance(Duration.ofSeconds(2));
        assertEquals(Duration.ofSeconds(4), waitRounded(f.failed("ann", "10.0.0.1")));
        for (int i = 0; i < 40; i++) {
            clock.advance(Duration.ofSeconds(8));
            f.failed("ann", "10.0.0." + (i % 5 + 20));
        }
        assertEquals(Duration.ofSeconds(8), waitRounded(f.wait("ann", "10.0.0.2")), "capped at max-lockout, never overflowing");
        clock.advance(Duration.ofSeconds(8));
        f.succeeded("ann");
        assertEquals(Duration.ZERO, f.wait("ann", "10.0.0.2"));
        assertEquals(Duration.ZERO, f.failed("ann", "10.0.0.2"), "a success starts the count again");
        clock.reset();
    }

    @Test
    void anAddressWaitsAfterItsOwnFreeFailuresWhateverUsersItTriesAndFailuresAreForgotten() {
        LoginFailures f = new LoginFailures(clock::monotonicNanos, USER, ADDRESS, 1000);
        for (int i = 0; i < 10; i++) {
            f.failed("user" + i, "10.0.0.7");
        }
        assertTrue(f.wait("someone", "10.0.0.7").compareTo(Duration.ZERO) > 0);
        assertEquals(Duration.ZERO, f.wait("someone", "10.0.0.8"));
        clock.advance(Duration.ofMinutes(15));
        assertEquals(Duration.ZERO, f.wait("someone", "10.0.0.7"), "forgotten after forget-after");
        assertEquals(Duration.ZERO, f.failed("user1", "10.0.0.7"), "counting starts over");
        clock.reset();
    }

    /** A wall clock set back an hour (NTP, a resumed VM) stretches no lockout: the wait is on the monotonic clock. */
    @Test
    void aWallClockSetBackStretchesNoLockout() {
        LoginFailures f = new LoginFailures(clock::monotonicNanos, USER, ADDRESS, 1000);
        for (int i = 0; i < 3; i++) {
            f.failed("ann", "10.0.0.1");
        }
        clock.jump(Duration.ofHours(-1));
        assertEquals(Duration.ofSeconds(1), waitRounded(f.wait("ann", "10.0.0.1")));
        clock.advance(Duration.ofSeconds(1));
        assertEquals(Duration.ZERO, f.wait("ann", "10.0.0.1"), "the second passed, whatever the wall clock says");
        clock.reset();
    }

    @Test
    void memoryIsBoundedByTheTrackedKeys() {
        LoginFailures f = new LoginFailures(clock::monotonicNanos, USER, ADDRESS, 100);
        for (int i = 0; i < 10_000; i++) {
            f.failed("user" + i, "10.1." + (i / 256) + "." + (i % 256));
        }
        assertEquals(100, f.tracked());
    }

    static Duration waitRounded(Duration d) {
        return Duration.ofMillis(Math.round(d.toMillis() / 100.0) * 100);
    }
}
