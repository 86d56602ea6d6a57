package dev.redrive.redrive;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** A redrive's pace as arithmetic: step sizes and waits, the schedule stepped without a clock. */
class PaceTest {

    static final long SECOND = 1_000_000_000L;

    @Test
    void aStepIsATwentiethOfASecondsWorthAtLeastOneAtMostAPage() {
        assertEquals(75, new Pace(1500).perStep(200));
        assertEquals(2, new Pace(50).perStep(200));
        assertEquals(1, new Pace(20).perStep(200));
        assertEquals(1, new Pace(7).perStep(200));
        assertEquals(200, new Pace(1_000_000).perStep(200));
        assertEquals(200, new Pace(0).perStep(200), "no limit: a page per step");
    }

    @Test
    void theNextStepWaitsUntilWhatMovedHadItsShareOfTime() {
        Pace pace = new Pace(1500);
        assertEquals(0, pace.waitNanos(0, 0), "the first step at once");
        assertEquals(SECOND / 20, pace.waitNanos(75, 0));
        assertEquals(SECOND / 20 - 10_000_000, pace.waitNanos(75, 10_000_000));
        assertEquals(0, pace.waitNanos(75, SECOND), "behind: no wait, and no burst either");
        assertEquals(SECOND / 7, new Pace(7).waitNanos(1, 0));
        assertEquals(0, new Pace(0).waitNanos(1_000_000, 0), "no limit: never waits");
    }

    @Test
    void tenThousandAt1500ASecondTake134StepsStartedEvery50Milliseconds() {
        Schedule s = run(new Pace(1500), 10_000, 0);
        assertEquals(134, s.steps);
        assertEquals(133 * SECOND / 20, s.lastStart, "step k starts at k x 50 ms");
    }

    @Test
    void stepsSlowerThanThePaceRunBackToBackWithoutCatchingUp() {
        Schedule s = run(new Pace(1500), 10_000, 60_000_000);
        assertEquals(134, s.steps, "still 75 a step");
        assertEquals(133 * 60_000_000L, s.lastStart);
    }

    record Schedule(int steps, long lastStart) {
    }

    /** What the runner does, with each step taking {@code stepNanos} of a stepped clock. */
    static Schedule run(Pace pace, int total, long stepNanos) {
        long now = 0;
        long moved = 0;
        long lastStart = 0;
        int steps = 0;
        while (moved < total) {
            now += pace.waitNanos(moved, now);
            lastStart = now;
            moved += Math.min(pace.perStep(200), total - moved);
            now += stepNanos;
            steps++;
        }
        return new Schedule(steps, lastStart);
    }
}
