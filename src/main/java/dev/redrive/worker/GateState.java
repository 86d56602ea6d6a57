package dev.redrive.worker;

/**
 * Whether a queue takes work, and the one table of the moves between the states (modelled on
 * {@code redrive/RedriveState.next()}; docs/ARCHITECTURE.md, "The queue gate", draws it and
 * GateStateTest pins it). Only the queue's circuit breaker moves the gate: {@link Workers} turns
 * the breaker's state changes and the probe timer it sets into {@link Event}s, and
 * {@link QueueWorker} applies them ({@code pause}, {@code probe}, {@code resume}).
 * <p>
 * Stopping (drain on shutdown) is not a gate state: a stopped worker takes no work whatever its gate.
 */
enum GateState {
    /** Jobs run up to the queue's concurrency. */
    OPEN,
    /** The circuit is open: nothing runs; jobs already read are handed back unspent (RELEASE). */
    PAUSED,
    /** The breaker's delay has passed: one job at a time runs, and the breaker decides with it. */
    PROBING;

    /** What moves the gate. */
    enum Event {
        /** The breaker opened: from closed (too many failures), or from half-open (a probe failed). */
        CIRCUIT_OPENED,
        /** The timer {@link Workers} set for the breaker's delay when it opened has fired. */
        PROBE_DUE,
        /** The breaker closed: a probe succeeded. */
        CIRCUIT_CLOSED
    }

    /** The state this event moves the gate to (itself when the event does not move it). */
    GateState next(Event event) {
        return switch (event) {
            case CIRCUIT_OPENED -> PAUSED;
            // Only a paused queue probes: the breaker closes only after a probe, so an open gate
            // never sees its probe timer fire, and a probing one is probing already.
            case PROBE_DUE -> this == PAUSED ? PROBING : this;
            case CIRCUIT_CLOSED -> OPEN;
        };
    }

    /** Whether jobs may start (and the retry scheduler and stall reclaimer claim). */
    boolean takesWork() {
        return this != PAUSED;
    }

    /** How many jobs may run at once, for a queue of this concurrency. */
    int limit(int concurrency) {
        return this == PROBING ? 1 : concurrency;
    }

    /** What the queue reports ({@code redrive_queue_paused}, readiness): not fully open. */
    boolean paused() {
        return this != OPEN;
    }
}
