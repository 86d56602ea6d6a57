package dev.redrive.retry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import dev.redrive.job.JobFailedException;
import dev.redrive.job.TerminalJobException;

class RetryPolicyTest {

    static final Failure TRANSIENT = Failure.of(new IllegalStateException("busy"));
    static final Failure TERMINAL = Failure.of(new TerminalJobException("corrupt upload"));
    static final Failure NOT_ATTEMPTED = new Failure(false, false, "circuit-open", "circuit open", null);

    @ParameterizedTest(name = "{0} on attempt {1} of {2} -> {3}")
    @CsvSource({
            "none,      1, 5, ACK",
            "none,      5, 5, ACK",
            "transient, 1, 5, RETRY_LATER",
            "transient, 4, 5, RETRY_LATER",
            "transient, 5, 5, PARK_EXHAUSTED",
            "transient, 1, 1, PARK_EXHAUSTED",
            "terminal,  1, 5, PARK_TERMINAL",
            "terminal,  5, 5, PARK_TERMINAL",
            "skipped,   3, 5, RELEASE",
            "skipped,   5, 5, RELEASE",
    })
    void decidesFromFailureAttemptAndBudget(String failure, int attempt, int max, Decision expected) {
        Failure f = switch (failure) {
            case "none" -> null;
            case "transient" -> TRANSIENT;
            case "terminal" -> TERMINAL;
            default -> NOT_ATTEMPTED;
        };
        assertEquals(expected, RetryPolicy.decide(f, attempt, max));
    }

    @Test
    void aDeliveryPastTheBudgetMayNotRun() {
        assertTrue(RetryPolicy.mayRun(5, 5));
        assertFalse(RetryPolicy.mayRun(6, 5));
    }

    @Test
    void parkingDecisionsNameTheirFailureKind() {
        assertEquals(FailureKind.TERMINAL, Decision.PARK_TERMINAL.failureKind());
        assertEquals(FailureKind.EXHAUSTED, Decision.PARK_EXHAUSTED.failureKind());
        assertFalse(Decision.RETRY_LATER.parks());
    }

    @Test
    void failuresKeepTypeMessageAndRetryAfter() {
        Failure http = Failure.of(new JobFailedException("http-503", "HTTP 503 Service Unavailable", Duration.ofSeconds(7)));
        assertEquals("http-503", http.errorType());
        assertEquals(Duration.ofSeconds(7), http.retryAfterHint().orElseThrow());
        assertFalse(http.terminal());
        Failure wrapped = Failure.of(new java.util.concurrent.CompletionException(new TerminalJobException("http-422", "bad", null)));
        assertTrue(wrapped.terminal());
        assertEquals("http-422", wrapped.errorType());
        assertEquals("java.lang.IllegalStateException", TRANSIENT.errorType());
        assertEquals("NullPointerException", Failure.of(new NullPointerException()).reason(), "never an empty reason");
    }
}
