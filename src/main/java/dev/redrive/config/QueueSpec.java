package dev.redrive.config;

import java.net.URI;
import java.time.Duration;

import dev.redrive.retry.Backoff;

/**
 * One queue's configuration after validation: every default resolved, every value checked.
 *
 * @param deadLetters the dead-letter stream this queue parks into
 * @param maxRetryAfter the longest a provider's Retry-After may hold a job
 * @param proposeAfterOutage whether the end of an outage proposes the redrive of what it exhausted
 */
public record QueueSpec(
        String name,
        String stream,
        String group,
        String handler,
        URI httpUrl,
        Duration httpTimeout,
        int httpBulkhead,
        HttpConfig.CircuitBreaker circuitBreaker,
        int maxAttempts,
        Backoff backoff,
        String deadLetters,
        int concurrency,
        int batch,
        Duration block,
        Duration retryPoll,
        Duration visibilityTimeout,
        Duration maxRetryAfter,
        boolean proposeAfterOutage) {

    public static final String HTTP_HANDLER = "http";

    public boolean isHttp() {
        return HTTP_HANDLER.equals(handler);
    }
}
