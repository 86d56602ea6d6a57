package dev.redrive.redrive;

import dev.redrive.deadletter.EntryFilter;

/**
 * What a redrive moves and how fast, as the operator asked.
 *
 * @param maxPerSecond  entries a second at most; 0 means no limit
 * @param canary        entries to move first and wait for; 0 means no canary
 * @param maxRefailRate the share of the canary's jobs that may be parked again before the task aborts
 */
public record RedriveSpec(EntryFilter filter, int maxPerSecond, boolean dryRun, int canary, double maxRefailRate,
        String note) {

    Pace pace() {
        return new Pace(maxPerSecond);
    }
}
