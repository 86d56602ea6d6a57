package dev.redrive.redrive;

import dev.redrive.deadletter.EntryFilter;

/**
 * What a redrive moves and how fast, as the operator asked.
 *
 * @param maxPerSecond  entries a second at most; 0 means no limit
 * @param canary        entries to move first and wait for; 0 means no canary
 * @param maxRefailRate the share of the canary's jobs that may be parked again before the task aborts
 * @param patch         what each moved entry changes ({@link RedrivePatch#NONE}: it goes back as parked)
 */
public record RedriveSpec(EntryFilter filter, int maxPerSecond, boolean dryRun, int canary, double maxRefailRate,
        String note, RedrivePatch patch) {

    /**
     * Entries a second of a redrive that names no pace (a request without maxPerSecond, redrive's
     * own proposal after an outage); 0 would mean no limit (SQS caps its redrive at 500/s).
     */
    public static final int DEFAULT_MAX_PER_SECOND = 100;
    /** The share of a canary that may be parked again before the task aborts, when none is named. */
    public static final double DEFAULT_MAX_REFAIL_RATE = 0.5;

    public RedriveSpec {
        patch = patch == null ? RedrivePatch.NONE : patch;
    }

    /** A redrive without a patch. */
    public RedriveSpec(EntryFilter filter, int maxPerSecond, boolean dryRun, int canary, double maxRefailRate,
            String note) {
        this(filter, maxPerSecond, dryRun, canary, maxRefailRate, note, RedrivePatch.NONE);
    }

    Pace pace() {
        return new Pace(maxPerSecond);
    }
}
