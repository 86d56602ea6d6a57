package dev.redrive.job;

import java.time.Duration;
import java.util.Optional;

/**
 * A transient failure that knows more than a plain exception: the error type the dead-letter
 * record should show (e.g. {@code http-503}) and the least delay the provider asked for.
 */
public class JobFailedException extends RuntimeException {

    private final String errorType;
    private final Duration retryAfter;

    public JobFailedException(String errorType, String message, Duration retryAfter) {
        super(message);
        this.errorType = errorType;
        this.retryAfter = retryAfter;
    }

    public String errorType() {
        return errorType;
    }

    public Optional<Duration> retryAfter() {
        return Optional.ofNullable(retryAfter);
    }
}
