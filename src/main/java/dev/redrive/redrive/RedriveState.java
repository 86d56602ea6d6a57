package dev.redrive.redrive;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The states of a bulk redrive, and the one table of the moves between them. The scripts name the
 * same states in lower case (redrive-start.lua, redrive-claim.lua, redrive-count.lua,
 * redrive-step.lua; RedriveStateTest keeps them agreeing); docs/ARCHITECTURE.md draws the table.
 * <p>
 * Who moves a task on: its runner ({@link TaskDriver}) when a phase is done, an operator's cancel
 * ({@link RedriveTasks#cancel}) from any unfinished state, the canary's verdict ({@link Canary})
 * out of {@link #CANARY}. A runner that dies or shuts down moves nothing: the task keeps its state
 * and cursor, and the next runner that claims it ({@link RedriveRunner}) goes on from there.
 */
public enum RedriveState {
    /** The runner counts what matches (a dry run ends after this). */
    COUNTING,
    /** The runner moves the first {@code canary} entries and waits for their jobs' verdict. */
    CANARY,
    /** The runner moves the rest, step by step at the task's pace. */
    RUNNING,
    COMPLETED,
    CANCELLED,
    /**
     * The canary's jobs came back too often, or did not finish in time; or the task could not make
     * progress (its runs kept failing on a key of another type, {@link RedriveRunner}): the rest stay parked.
     */
    ABORTED;

    /** The name as the scripts and the task hash spell it. */
    public final String wire = name().toLowerCase(Locale.ROOT);

    private static final Map<String, RedriveState> BY_WIRE = Arrays.stream(values())
            .collect(Collectors.toUnmodifiableMap(s -> s.wire, Function.identity()));

    /** The states a task may move to from this one. */
    public Set<RedriveState> next() {
        return switch (this) {
            case COUNTING -> EnumSet.of(CANARY, RUNNING, COMPLETED, CANCELLED, ABORTED);
            case CANARY -> EnumSet.of(RUNNING, ABORTED, CANCELLED);
            case RUNNING -> EnumSet.of(COMPLETED, CANCELLED, ABORTED);
            case COMPLETED, CANCELLED, ABORTED -> EnumSet.noneOf(RedriveState.class);
        };
    }

    public boolean canMoveTo(RedriveState to) {
        return next().contains(to);
    }

    /** Nothing moves a finished task any more; its hash expires after redrive.replay.redrive-retention. */
    public boolean finished() {
        return next().isEmpty();
    }

    /** The state a task hash names; an unknown name fails as a bug would. */
    public static RedriveState of(String wire) {
        RedriveState state = wire == null ? null : BY_WIRE.get(wire);
        if (state == null) {
            throw new IllegalStateException("no redrive state '" + wire + "'; known: " + BY_WIRE.keySet());
        }
        return state;
    }
}
