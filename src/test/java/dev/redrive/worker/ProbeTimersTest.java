package dev.redrive.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.redrive.testing.SteppableTimers;

/** A paused queue's probe runs after the breaker's delay, once; none runs after shutdown cancelled them. */
class ProbeTimersTest {

    final SteppableTimers time = SteppableTimers.manual(Instant.EPOCH);
    final ProbeTimers probes = new ProbeTimers(time);
    final List<String> probed = new ArrayList<>();

    private void step(long millis) {
        time.advance(Duration.ofMillis(millis));
    }

    @Test
    void aProbeRunsAfterTheDelayOnce() {
        probes.schedule("orders", Duration.ofSeconds(30), () -> probed.add("orders"));
        step(29_999);
        assertEquals(List.of(), probed);
        step(1);
        assertEquals(List.of("orders"), probed);
        step(60_000);
        assertEquals(List.of("orders"), probed);
    }

    @Test
    void aQueueHasOneProbeWaitingAtATime() {
        probes.schedule("orders", Duration.ofSeconds(30), () -> probed.add("first"));
        probes.schedule("orders", Duration.ofSeconds(30), () -> probed.add("second"));
        probes.schedule("mail", Duration.ofSeconds(10), () -> probed.add("mail"));
        step(60_000);
        assertEquals(List.of("mail", "second"), probed);
    }

    @Test
    void noProbeRunsOnceShutdownCancelledThem() {
        probes.schedule("orders", Duration.ofSeconds(30), () -> probed.add("orders"));
        probes.cancelAll();
        probes.schedule("mail", Duration.ofSeconds(10), () -> probed.add("mail"));
        step(60_000);
        assertEquals(List.of(), probed);
        assertEquals(0, time.pending(), "no timer left behind");
    }
}
