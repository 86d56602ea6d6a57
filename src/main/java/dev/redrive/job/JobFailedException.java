package dev.redrive.job;

import java.time.Duration;
import java.util.Optional;

/**
 * A transient failure that knows more than a plain exception: the error type the dead-letter
 * record should show (e.g. {@code http-503}) and the least delay the provider asked for.
 * <p>
 * It carries no stack trace: redrive keeps a failure's type and message, never its stack (a
 * record holds {@code error-type} and {@code reason}), and filling one in walks the whole event-loop
 * stack at every failed attempt. A cause, when there is one, keeps its own.
 */
public class JobFailedException extends RuntimeException {

    private final String errorType;
    private final Duration retryAfter;

    public JobFailedException(String errorType, String message, Duration retryAfter) {
        super(message, null, true, false);
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
