package dev.redrive.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.vertx.mutiny.core.Vertx;

/** The retries a process times, on a clock the test moves: taken when due, earliest first, none dropped. */
class DueRetriesTest {

    static final class SetClock extends Clock {
        long millis;

        @Override
        public long millis() {
            return millis;
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(millis);
        }

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }
    }

    final Vertx vertx = Vertx.vertx();
    final SetClock clock = new SetClock();
    final DueRetries due = new DueRetries(vertx, clock, () -> { });

    @AfterEach
    void close() {
        due.stop();
        vertx.closeAndAwait();
    }

    @Test
    void dueJobsAreTakenEarliestFirstAndNoMoreThanAsked() {
        clock.millis = 1_000;
        due.add(List.of(new DueRetries.Waiting("3-0", 1, 3_000), new DueRetries.Waiting("1-0", 1, 1_500),
                new DueRetries.Waiting("2-0", 2, 2_000)));
        assertEquals(List.of(), due.takeDue(10));
        clock.millis = 2_000;
        assertTrue(due.overdue());
        assertEquals(List.of("1-0"), due.takeDue(1).stream().map(DueRetries.Waiting::id).toList());
        assertEquals(List.of("2-0"), due.takeDue(10).stream().map(DueRetries.Waiting::id).toList());
        assertFalse(due.overdue());
        assertEquals(1, due.size());
    }

    @Test
    void aJobHandedOverAgainBeforeItsOlderWaitEndsIsTimedTwiceAndNeitherIsDropped() {
        clock.millis = 0;
        due.add(List.of(new DueRetries.Waiting("7-0", 1, 100)));
        due.add(List.of(new DueRetries.Waiting("7-0", 3, 200)));
        assertEquals(2, due.size());
        clock.millis = 150;
        assertEquals(List.of(1), due.takeDue(10).stream().map(DueRetries.Waiting::attempt).toList());
        assertTrue(due.times("7-0"), "the later wait still stands for the job");
        clock.millis = 250;
        assertEquals(List.of(3), due.takeDue(10).stream().map(DueRetries.Waiting::attempt).toList());
        assertFalse(due.times("7-0"));
    }
}
