package dev.redrive.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import static dev.redrive.worker.GateState.OPEN;
import static dev.redrive.worker.GateState.PAUSED;
import static dev.redrive.worker.GateState.PROBING;
import static dev.redrive.worker.GateState.Event.CIRCUIT_CLOSED;
import static dev.redrive.worker.GateState.Event.CIRCUIT_OPENED;
import static dev.redrive.worker.GateState.Event.PROBE_DUE;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/**
 * Pins the queue gate's table (docs/ARCHITECTURE.md, "The queue gate"): every state under every
 * event, and what each state lets through.
 */
class GateStateTest {

    /** state → event → next state: the table the docs draw, cell by cell. */
    static final Map<GateState, Map<GateState.Event, GateState>> TABLE = new EnumMap<>(Map.of(
            OPEN, new EnumMap<>(Map.of(CIRCUIT_OPENED, PAUSED, PROBE_DUE, OPEN, CIRCUIT_CLOSED, OPEN)),
            PAUSED, new EnumMap<>(Map.of(CIRCUIT_OPENED, PAUSED, PROBE_DUE, PROBING, CIRCUIT_CLOSED, OPEN)),
            PROBING, new EnumMap<>(Map.of(CIRCUIT_OPENED, PAUSED, PROBE_DUE, PROBING, CIRCUIT_CLOSED, OPEN))));

    @Test
    void everyStateUnderEveryEventMovesAsTheTableSays() {
        assertEquals(GateState.values().length, TABLE.size(), "the table covers every state");
        for (GateState from : GateState.values()) {
            assertEquals(GateState.Event.values().length, TABLE.get(from).size(), from + " under every event");
            for (GateState.Event event : GateState.Event.values()) {
                assertEquals(TABLE.get(from).get(event), from.next(event), from + " on " + event);
            }
        }
    }

    /** A row of docs/ARCHITECTURE.md's gate table: the state, then its next state under each event. */
    private static final Pattern DOC_ROW = Pattern.compile("^\\| `([a-z]+)` \\| `([a-z]+)`[^|]*\\| `([a-z]+)`[^|]*\\| `([a-z]+)`[^|]*\\|",
            Pattern.MULTILINE);

    @Test
    void theArchitectureDocDrawsTheSameTable() throws IOException {
        String doc = Files.readString(Path.of("docs/ARCHITECTURE.md"));
        String section = doc.substring(doc.indexOf("## The queue gate"));
        section = section.substring(0, section.indexOf("\n## ", 1));
        assertTrue(section.contains("| State \\ event | `CIRCUIT_OPENED` | `PROBE_DUE` | `CIRCUIT_CLOSED` |"),
                "the doc's columns are the events, in Event's order");
        Map<GateState, Map<GateState.Event, GateState>> drawn = new EnumMap<>(GateState.class);
        Matcher row = DOC_ROW.matcher(section);
        while (row.find()) {
            Map<GateState.Event, GateState> moves = new EnumMap<>(GateState.Event.class);
            for (GateState.Event event : GateState.Event.values()) {
                moves.put(event, state(row.group(event.ordinal() + 2)));
            }
            drawn.put(state(row.group(1)), moves);
        }
        assertEquals(TABLE, drawn);
    }

    private static GateState state(String doc) {
        return GateState.valueOf(doc.toUpperCase(Locale.ROOT));
    }

    @Test
    void anOutageGoesOpenPausedProbingAndBackOpenOnceAProbeSucceeds() {
        GateState gate = OPEN.next(CIRCUIT_OPENED);
        assertEquals(PAUSED, gate);
        gate = gate.next(PROBE_DUE);
        assertEquals(PROBING, gate);
        gate = gate.next(CIRCUIT_OPENED); // the probe failed
        assertEquals(PAUSED, gate);
        assertEquals(OPEN, gate.next(PROBE_DUE).next(CIRCUIT_CLOSED));
    }

    @Test
    void onlyAPausedGateStopsWorkAndAProbingOneLetsOneJobThrough() {
        assertTrue(OPEN.takesWork());
        assertFalse(PAUSED.takesWork());
        assertTrue(PROBING.takesWork());
        assertEquals(8, OPEN.limit(8));
        assertEquals(1, PROBING.limit(8));
    }

    @Test
    void theQueueReportsPausedUntilTheGateIsOpenAgain() {
        assertFalse(OPEN.paused());
        assertTrue(PAUSED.paused());
        assertTrue(PROBING.paused());
    }
}
