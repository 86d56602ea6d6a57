package dev.redrive.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/** The bench's record of retry lateness: exact nearest-rank quantiles, early starts counted apart. */
class LatenessTest {

    @Test
    void quantilesAreTheNearestRankOfEveryValueRecorded() {
        BenchHandlers.Lateness lateness = new BenchHandlers.Lateness();
        assertTrue(Double.isNaN(lateness.quantileSeconds(0.5)), "nothing recorded: no quantile");
        for (int ms = 100; ms >= 1; ms--) {
            lateness.record(TimeUnit.MILLISECONDS.toNanos(ms));
        }
        lateness.record(-1);

        assertEquals(100, lateness.recorded());
        assertEquals(1, lateness.early.get());
        assertEquals(0.050, lateness.quantileSeconds(0.5));
        assertEquals(0.099, lateness.quantileSeconds(0.99));
        assertEquals(0.100, lateness.quantileSeconds(0.999));
        assertEquals(0.100, lateness.quantileSeconds(1));
        assertEquals(0.001, lateness.quantileSeconds(0));
    }
}
