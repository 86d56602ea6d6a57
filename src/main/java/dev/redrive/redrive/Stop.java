package dev.redrive.redrive;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Tells one run of a task to stop (this process shuts down or gives the task up), and is what
 * the run waits on between steps, so a stop ends a pace's or a canary's wait at once rather than
 * depending on an interrupt reaching the right thread.
 */
final class Stop {

    private final CountDownLatch signal = new CountDownLatch(1);

    void now() {
        signal.countDown();
    }

    boolean requested() {
        return signal.getCount() == 0;
    }

    /** Waits {@code nanos} unless stopped first; true when the wait ran its course. */
    boolean pause(long nanos) throws InterruptedException {
        return nanos <= 0 ? !requested() : !signal.await(nanos, TimeUnit.NANOSECONDS);
    }

    boolean pause(Duration time) throws InterruptedException {
        return pause(time.toNanos());
    }
}
