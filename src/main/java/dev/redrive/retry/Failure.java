package dev.redrive.retry;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeoutException;

import dev.redrive.job.JobFailedException;
import dev.redrive.job.TerminalJobException;

/**
 * What went wrong in one attempt, detached from the live exception so it can be written into a
 * dead-letter record: the error type, the message, and whether a retry could help.
 */
public record Failure(boolean terminal, boolean attempted, String errorType, String reason, Duration retryAfter) {

    /** Longest reason kept in a record; the rest of a stack or body belongs in logs. */
    static final int MAX_REASON = 4096;

    public static Failure of(Throwable error) {
        Throwable e = unwrap(error);
        if (e instanceof TerminalJobException terminal) {
            return new Failure(true, true, terminal.errorType(), message(e), null);
        }
        if (e instanceof JobFailedException failed) {
            return new Failure(false, true, failed.errorType(), message(e), failed.retryAfter().orElse(null));
        }
        String name = e.getClass().getSimpleName();
        if (name.equals("CircuitBreakerOpenException")) {
            // The provider was never called: the job goes back without spending an attempt.
            return new Failure(false, false, "circuit-open", message(e), null);
        }
        if (name.equals("BulkheadException")) {
            return new Failure(false, false, "bulkhead-full", message(e), null);
        }
        if (e instanceof TimeoutException || name.contains("Timeout")) {
            return new Failure(false, true, "timeout", message(e), null);
        }
        return new Failure(false, true, e.getClass().getName(), message(e), null);
    }

    public static Failure terminal(String errorType, String reason) {
        return new Failure(true, true, errorType, truncate(reason), null);
    }

    /** A delivery that arrived with its budget already spent. */
    public static Failure overBudget(int attempt, int maxAttempts) {
        return terminal("budget", "delivered " + attempt + " times, the budget is " + maxAttempts + " attempts");
    }

    /** A pending entry whose stream entry is gone. */
    public static Failure missing(String stream) {
        return missing(stream, null);
    }

    /**
     * A pending entry whose stream entry is gone, after an attempt that failed with {@code last}
     * (null when no attempt's failure is known): the record keeps the last error in its reason.
     */
    public static Failure missing(String stream, Failure last) {
        String trimmed = "entry trimmed from " + stream + " before it completed";
        return terminal("missing", last == null ? trimmed
                : trimmed + "; last error: " + last.errorType() + ": " + last.reason());
    }

    public Optional<Duration> retryAfterHint() {
        return Optional.ofNullable(retryAfter);
    }

    private static Throwable unwrap(Throwable e) {
        Throwable current = e;
        while ((current instanceof java.util.concurrent.CompletionException
                || current instanceof java.util.concurrent.ExecutionException)
                && current.getCause() != null) {
            current = current.getCause();
        }
        return current;
    }

    private static String message(Throwable e) {
        String message = e.getMessage();
        return truncate(message == null || message.isBlank() ? e.getClass().getSimpleName() : message);
    }

    private static String truncate(String s) {
        return s.length() <= MAX_REASON ? s : s.substring(0, MAX_REASON) + "…";
    }
}
