package dev.redrive.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Duration;

import org.junit.jupiter.api.Test;

/**
 * A provider's Retry-After as a wait: delta-seconds as they are, an HTTP-date against the same
 * response's Date (the provider's clock wrote both), so a replica whose own clock is off waits as
 * long as any other (issue 34, item 5); without a readable Date, against this process's clock.
 */
class RetryAfterTest {

    @Test
    void anHttpDateIsReadAgainstTheResponsesOwnDateNotThisProcesssClock() {
        // Years in the past: against this process's clock the wait would be none at all.
        assertEquals(Duration.ofSeconds(5), HttpJobHandler.retryAfter("Fri, 04 Dec 2020 17:00:05 GMT",
                "Fri, 04 Dec 2020 17:00:00 GMT"));
        assertEquals(Duration.ZERO, HttpJobHandler.retryAfter("Fri, 04 Dec 2020 16:59:55 GMT",
                "Fri, 04 Dec 2020 17:00:00 GMT"), "a date before the response's is no wait");
        assertEquals(Duration.ZERO, HttpJobHandler.retryAfter("Fri, 04 Dec 2020 17:00:05 GMT", "yesterday"),
                "an unreadable Date falls back to this process's clock");
    }

    @Test
    void deltaSecondsAreTheWaitAndAnythingElseIsNoHint() {
        assertEquals(Duration.ofSeconds(120), HttpJobHandler.retryAfter(" 120 ", null));
        assertEquals(Duration.ofSeconds(Long.MAX_VALUE), HttpJobHandler.retryAfter("99999999999999999999999", null));
        assertNull(HttpJobHandler.retryAfter("soon", null));
        assertNull(HttpJobHandler.retryAfter("", null));
    }
}
