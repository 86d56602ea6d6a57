package dev.redrive.retry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import dev.redrive.job.JobFailedException;
import dev.redrive.job.TerminalJobException;

/**
 * A failed attempt's exception is a value, not a report: redrive keeps its type and message and
 * never its stack, so the exceptions a handler fails with fill none in (filling one in walked the
 * event loop's whole stack at every failed attempt: bench/README.md, issue 37). A cause keeps its own.
 */
class FailureExceptionsTest {

    @Test
    void aTransientFailureCarriesNoStackButAllTheRecordNeeds() {
        JobFailedException e = new JobFailedException("http-503", "POST /render answered 503", Duration.ofMillis(250));

        assertEquals(0, e.getStackTrace().length);
        assertEquals(new Failure(false, true, "http-503", "POST /render answered 503", Duration.ofMillis(250)),
                Failure.of(e));
    }

    @Test
    void aTerminalFailureCarriesNoStackAndItsCauseKeepsItsOwn() {
        IllegalStateException cause = new IllegalStateException("not a PDF");
        TerminalJobException e = new TerminalJobException("upload is corrupt", cause);

        assertEquals(0, e.getStackTrace().length);
        assertSame(cause, e.getCause());
        assertTrue(cause.getStackTrace().length > 0);
        assertEquals(new Failure(true, true, IllegalStateException.class.getName(), "upload is corrupt", null),
                Failure.of(e));
    }

    @Test
    void aFailureCanStillCarrySuppressedOnes() {
        JobFailedException e = new JobFailedException("bench", "fails", null);
        IllegalStateException cleanup = new IllegalStateException("close failed");

        e.addSuppressed(cleanup);

        assertSame(cleanup, e.getSuppressed()[0]);
    }
}
