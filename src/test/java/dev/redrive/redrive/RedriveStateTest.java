package dev.redrive.redrive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

/**
 * The task states are named in Java once ({@link RedriveState}) and in the scripts that check a
 * task's state; these tests keep the two agreeing, and pin the transition table that
 * docs/ARCHITECTURE.md draws. Likewise for the task hash's fields ({@link RedriveTask.Field}).
 */
class RedriveStateTest {

    /** Every script that reads or writes a task hash. */
    static final List<String> TASK_SCRIPTS = List.of("redrive-start.lua", "lib/start-task.lua", "redrive-claim.lua", "redrive-count.lua",
            "redrive-step.lua", "lib/task.lua", "dead-letter.lua");

    /** {@code state == 'running'}, {@code state ~= 'counting'} */
    private static final Pattern COMPARED = Pattern.compile("state [=~]= '([a-z-]+)'");
    /** {@code holds(task, owner, { canary = true, running = true })} (lib/task.lua) */
    private static final Pattern HELD = Pattern.compile("holds\\(task, owner, \\{([^}]*)\\}\\)");
    private static final Pattern SET_MEMBER = Pattern.compile("([a-z-]+) = true");
    /** {@code redis.call('HGET', task, 'state')} and the other literals on such a line; dead-letter.lua's addTo. */
    private static final Pattern TASK_COMMAND = Pattern.compile("(?:'H[A-Z]+', task,|addTo\\(task,)(.*)$");
    private static final Pattern FIELD = Pattern.compile("'([a-z][a-z-]*)'");

    static final Set<RedriveState> UNFINISHED = EnumSet.of(RedriveState.COUNTING, RedriveState.CANARY,
            RedriveState.RUNNING);

    @Test
    void everyStateAScriptNamesIsAState() {
        Set<String> wires = Arrays.stream(RedriveState.values()).map(s -> s.wire).collect(Collectors.toSet());
        for (String script : TASK_SCRIPTS) {
            Set<String> named = statesNamedIn(script);
            assertTrue(wires.containsAll(named), script + " names states " + named + "; RedriveState knows " + wires);
        }
    }

    @Test
    void theScriptsTreatAsUnfinishedExactlyTheStatesThatCanStillMove() {
        Set<String> unfinished = wires(UNFINISHED);
        assertEquals(unfinished, wires(Arrays.stream(RedriveState.values()).filter(s -> !s.finished())
                .collect(Collectors.toSet())));
        // the one-at-a-time check and the lease both stop at a finished task
        assertEquals(unfinished, statesNamedIn("lib/start-task.lua"));
        assertEquals(unfinished, statesNamedIn("redrive-claim.lua"));
        // the runner counts in counting and moves in canary and running: every unfinished state has a step
        assertEquals(Set.of("counting"), statesNamedIn("redrive-count.lua"));
        Set<String> worked = new TreeSet<>(statesNamedIn("redrive-count.lua"));
        worked.addAll(statesNamedIn("redrive-step.lua"));
        assertEquals(unfinished, worked);
    }

    @Test
    void theTransitionTable() {
        assertEquals(EnumSet.of(RedriveState.CANARY, RedriveState.RUNNING, RedriveState.COMPLETED,
                RedriveState.CANCELLED, RedriveState.ABORTED), RedriveState.COUNTING.next(),
                "canary or not; a dry run completes here; aborted when it can't make progress");
        assertEquals(EnumSet.of(RedriveState.RUNNING, RedriveState.ABORTED, RedriveState.CANCELLED),
                RedriveState.CANARY.next(), "the canary's verdict");
        assertEquals(EnumSet.of(RedriveState.COMPLETED, RedriveState.CANCELLED, RedriveState.ABORTED),
                RedriveState.RUNNING.next());
        for (RedriveState s : RedriveState.values()) {
            assertEquals(!UNFINISHED.contains(s), s.finished(), s.wire);
            assertEquals(!s.finished(), s.canMoveTo(RedriveState.CANCELLED), "an operator cancels any unfinished " + s.wire);
            assertFalse(s.canMoveTo(s), s.wire + " is no move");
            assertFalse(s.canMoveTo(RedriveState.COUNTING), "nothing goes back to counting");
        }
    }

    @Test
    void everyStateIsReachedFromCountingAndEveryRunEnds() {
        Set<RedriveState> reached = EnumSet.of(RedriveState.COUNTING);
        Deque<RedriveState> open = new ArrayDeque<>(reached);
        while (!open.isEmpty()) {
            for (RedriveState next : open.pop().next()) {
                if (reached.add(next)) {
                    open.push(next);
                }
            }
        }
        assertEquals(EnumSet.allOf(RedriveState.class), reached);
        for (RedriveState s : UNFINISHED) {
            assertTrue(s.canMoveTo(RedriveState.COMPLETED) || s.next().stream().anyMatch(n -> n.canMoveTo(RedriveState.COMPLETED)),
                    s.wire + " can still complete");
        }
    }

    @Test
    void aStateNamesItselfAsTheScriptsDo() {
        for (RedriveState s : RedriveState.values()) {
            assertEquals(s, RedriveState.of(s.wire));
        }
        assertThrows(IllegalStateException.class, () -> RedriveState.of("RUNNING"));
        assertThrows(IllegalStateException.class, () -> RedriveState.of(null));
    }

    @Test
    void everyTaskFieldAScriptUsesIsNamedInJava() {
        Set<String> used = new TreeSet<>();
        for (String script : TASK_SCRIPTS) {
            for (String line : code(script).split("\n")) {
                Matcher m = TASK_COMMAND.matcher(line);
                if (m.find()) {
                    Matcher f = FIELD.matcher(m.group(1));
                    while (f.find()) {
                        used.add(f.group(1));
                    }
                }
            }
        }
        assertTrue(used.containsAll(Set.of("state", "owner", "lease-until", "cursor", "count-cursor", "moved",
                "failed")), "the pattern finds the scripts' fields: " + used);
        Set<String> unknown = new TreeSet<>(used);
        unknown.removeAll(RedriveTask.Field.wires());
        assertEquals(Set.of(), unknown, "fields the scripts use that RedriveTask.Field lacks");
        for (RedriveTask.Field f : RedriveTask.Field.values()) {
            if (f.scriptOnly) {
                assertTrue(used.contains(f.wire), f.wire + " is marked as the scripts' own, but no script uses it");
            }
        }
    }

    @Test
    void aTaskReadsBackAsItWasWritten() {
        RedriveTask task = new RedriveTask("t", "{jobs}:dlq", RedriveState.RUNNING, "{}", 100, false, 5, 0.5, "why",
                "9-0", 10, 4, 1, 2, 3, "", "skipped entries: {jobs} is a string, not a stream", "operator", java.time.Instant.parse("2026-01-01T00:00:00Z"), null,
                "{\"set\":[[\"model\",\"Yg==\"]],\"remove\":[],\"json\":[]}", "");
        assertEquals(task, RedriveTask.fromHash("{jobs}:dlq", "t", task.toHash()));
        assertTrue(RedriveTask.Field.wires().containsAll(task.toHash().keySet()));
        RedriveStatus status = RedriveStatus.of(task, null);
        assertEquals(10 - 4 - 2, status.remaining());
        assertEquals(-1, RedriveStatus.of(task.in(RedriveState.COUNTING), null).matched());
        assertEquals(0, RedriveStatus.of(task.in(RedriveState.CANCELLED), null).remaining());
    }

    private static Set<String> statesNamedIn(String script) {
        String code = code(script);
        Set<String> named = new TreeSet<>();
        Matcher m = COMPARED.matcher(code);
        while (m.find()) {
            named.add(m.group(1));
        }
        Matcher held = HELD.matcher(code);
        while (held.find()) {
            Matcher member = SET_MEMBER.matcher(held.group(1));
            while (member.find()) {
                named.add(member.group(1));
            }
        }
        return named;
    }

    private static Set<String> wires(Set<RedriveState> states) {
        return states.stream().map(s -> s.wire).collect(Collectors.toCollection(TreeSet::new));
    }

    /** The script without its comments. */
    private static String code(String file) {
        try (InputStream in = RedriveStateTest.class.getResourceAsStream("/lua/" + file)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().filter(l -> !l.strip().startsWith("--"))
                    .collect(Collectors.joining("\n"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
