package dev.redrive.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.redrive.job.Job;
import dev.redrive.retry.Decision;

/** With tracing off an attempt's trace is the one {@link AttemptTrace#NONE}: nothing built per job, each step run at once. */
class AttemptTraceTest {

    @Test
    void tracingOffGivesEveryJobTheSameTraceThatRunsEachStepAtOnceAndEndsNothing() {
        var starter = AttemptTrace.starter(null);
        AttemptTrace trace = starter.apply(new Job("q", "q", "1-0", 1, 3, Map.of()));
        assertSame(AttemptTrace.NONE, trace);
        assertSame(trace, starter.apply(new Job("q", "q", "2-0", 2, 3, Map.of())), "no allocation per job");

        List<String> steps = new ArrayList<>();
        trace.runHandler(() -> {
            steps.add("handler");
            trace.run(() -> steps.add("counted"));
            trace.release(() -> steps.add("settled"));
        });
        trace.end(Decision.PARK_EXHAUSTED, null);

        assertEquals(List.of("handler", "counted", "settled"), steps, "in order, on the caller's thread");
        assertNull(trace.traceparent(), "a record parked with tracing off keeps no trace");
    }
}
