package dev.redrive.retry;

/** The dead-letter policy as one pure function: no Redis, no clock, no handler. */
public final class RetryPolicy {

    private RetryPolicy() {
    }

    /**
     * @param failure     the attempt's failure, or {@code null} when it succeeded
     * @param attempt     the 1-based attempt that just ran (the entry's delivery count)
     * @param maxAttempts the queue's budget
     */
    public static Decision decide(Failure failure, int attempt, int maxAttempts) {
        if (failure == null) {
            return Decision.ACK;
        }
        if (!failure.attempted()) {
            return Decision.RELEASE;
        }
        if (failure.terminal()) {
            return Decision.PARK_TERMINAL;
        }
        return attempt >= maxAttempts ? Decision.PARK_EXHAUSTED : Decision.RETRY_LATER;
    }

    /**
     * Whether a delivery may still run. A count above the budget means the entry came back some
     * other way (stall recovery, a lowered budget): it is parked without running, so no path can
     * loop forever.
     */
    public static boolean mayRun(int attempt, int maxAttempts) {
        return attempt <= maxAttempts;
    }
}
