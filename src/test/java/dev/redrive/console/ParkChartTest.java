package dev.redrive.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import dev.redrive.deadletter.ParksPerHour;

/** The SVG of a park chart: bars as tall as their counts, an empty window said so, every text escaped. */
class ParkChartTest {

    static final Instant FROM = Instant.parse("2026-12-02T04:00:00Z");
    static final Pattern BAR = Pattern.compile("<rect class=\"bar\" data-count=\"(\\d+)\" x=\"(\\d+)\" y=\"(\\d+)\" width=\"\\d+\" height=\"(\\d+)\"");

    static ParksPerHour parks(long... lastHours) {
        List<Long> counts = new ArrayList<>(Collections.nCopies(ParksPerHour.HOURS - lastHours.length, 0L));
        for (long n : lastHours) {
            counts.add(n);
        }
        return new ParksPerHour(FROM, counts);
    }

    @Test
    void barsAreProportionalToTheirHoursParksAndStandOnOneLine() {
        String svg = ParkChart.svg("orders", parks(10, 0, 5, 1));
        Matcher m = BAR.matcher(svg);
        List<int[]> bars = new ArrayList<>();
        while (m.find()) {
            bars.add(new int[] { Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)),
                    Integer.parseInt(m.group(4)) });
        }
        assertEquals(3, bars.size(), "no bar for an hour without parks: " + svg);
        assertEquals(List.of(10, 5, 1), bars.stream().map(b -> b[0]).toList());
        assertEquals(ParkChart.PLOT_HEIGHT, bars.get(0)[3], "the busiest hour is full height");
        assertEquals(ParkChart.PLOT_HEIGHT / 2, bars.get(1)[3], "half the parks, half the height");
        assertEquals(4, bars.get(2)[3], "a tenth, rounded");
        for (int[] bar : bars) {
            assertEquals(ParkChart.PLOT_HEIGHT, bar[2] + bar[3], "every bar stands on the axis");
        }
        int step = ParkChart.BAR_WIDTH + ParkChart.GAP;
        assertEquals(List.of(20 * step, 22 * step, 23 * step), bars.stream().map(b -> b[1]).toList(), "the last hour is on the right");
        assertEquals(1, ParkChart.height(1, 1_000_000), "one park among a million still shows");
        assertTrue(svg.contains("aria-label=\"16 parks of orders in the last 24 hours, per hour since 2026-12-02 04:00 UTC: "
                + "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 10 0 5 1\""), svg);
        assertTrue(svg.contains("<title>2026-12-03 02:00 UTC: 5 parks</title>"), svg);
        assertTrue(svg.contains("<title>2026-12-03 03:00 UTC: 1 park</title>"), svg);
        assertTrue(svg.contains("fill=\"currentColor\""), "the page's colour, light or dark");
        assertFalse(svg.contains("style="), "no inline style under the console's CSP");
    }

    @Test
    void anEmptyWindowDrawsOnlyTheAxisAndSaysSo() {
        String svg = ParkChart.svg("orders", parks());
        assertFalse(svg.contains("<rect"), svg);
        assertTrue(svg.contains("class=\"park-chart empty\""), svg);
        assertTrue(svg.contains("aria-label=\"No parks of orders in the last 24 hours (since 2026-12-02 04:00 UTC)\""), svg);
    }

    @Test
    void whatItNamesIsEscapedInTheLabelAndTheTitle() {
        String svg = ParkChart.svg("cause <script>alert(\"x\")</script> & 'y'", parks(1));
        assertFalse(svg.contains("<script>"), svg);
        assertFalse(svg.contains("\"x\""), svg);
        String escaped = "cause &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;";
        assertTrue(svg.contains("aria-label=\"1 park of " + escaped + " in the last"), svg);
        assertTrue(svg.contains("<title>1 park of " + escaped + " in the last"), svg);
    }
}
