package dev.redrive.retry;

/**
 * What happens to a job after an attempt. {@link RetryPolicy#decide} is the only place that picks
 * one; the worker only carries it out.
 */
public enum Decision {
    /** Done: XACK. */
    ACK(null),
    /** Hand the entry to the retry consumer; it runs again once its backoff has passed. */
    RETRY_LATER(null),
    /**
     * The handler never ran (circuit open, bulkhead full, shutting down): hand the entry back
     * with its delivery count restored, so no attempt is spent.
     */
    RELEASE(null),
    /** Retrying can't help: park at once. */
    PARK_TERMINAL(FailureKind.TERMINAL),
    /** The attempt budget is spent: park. */
    PARK_EXHAUSTED(FailureKind.EXHAUSTED);

    private final FailureKind failureKind;

    Decision(FailureKind failureKind) {
        this.failureKind = failureKind;
    }

    /** The {@code failure} field of the dead-letter record, for the two parking decisions. */
    public FailureKind failureKind() {
        return failureKind;
    }

    public boolean parks() {
        return failureKind != null;
    }
}
