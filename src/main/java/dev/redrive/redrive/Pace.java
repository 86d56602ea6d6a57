package dev.redrive.redrive;

/**
 * How a paced redrive spreads its moves over time: steps of a twentieth of a second's worth of
 * entries, each started no sooner than the entries before it allow at the asked rate. A pure
 * function of what moved and how long it took, so the arithmetic is tested without a clock.
 *
 * @param maxPerSecond entries a second at most; 0 means no limit
 */
record Pace(int maxPerSecond) {

    /** Small steps keep the rate even within a second and each script call short. */
    static final int STEPS_PER_SECOND = 20;

    boolean limited() {
        return maxPerSecond > 0;
    }

    /** Entries one step may move: a twentieth of a second's worth, at least 1, at most a page. */
    int perStep(int page) {
        return limited() ? Math.max(1, Math.min(page, maxPerSecond / STEPS_PER_SECOND)) : page;
    }

    /**
     * How long to wait before the next step, {@code elapsedNanos} after the task began moving with
     * {@code moved} entries moved: until those entries' share of time has passed, or not at all
     * when the task is behind (it does not try to catch up faster than one step at a time).
     */
    long waitNanos(long moved, long elapsedNanos) {
        return limited() ? Math.max(0, moved * 1_000_000_000L / maxPerSecond - elapsedNanos) : 0;
    }
}
