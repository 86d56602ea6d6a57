package dev.redrive.redrive;

import java.time.Instant;

/**
 * A redrive as the API reports it (docs/API.md); the JSON is these components, by name.
 *
 * @param matched  entries matching the filter (known once counting is done, else -1)
 * @param remaining matching entries not yet moved or skipped (0 once finished, -1 while counting)
 * @param failed   jobs this task moved that were parked again
 * @param skipped  matching entries it could not move (origin not allowed, other hash slot, no snapshot, origin
 *                 key of another type)
 * @param skipReason why, when an origin's key is of another type than a stream ("" else)
 */
public record RedriveStatus(String id, String dlq, String state, boolean dryRun, int maxPerSecond, int canary,
        double maxRefailRate, long matched, long moved, long remaining, long failed, long skipped, String skipReason,
        long canaryMoved,
        String detail, String createdBy, Instant createdAt, Instant finishedAt) {

    static RedriveStatus of(RedriveTask t) {
        long matched = t.state() == RedriveState.COUNTING ? -1 : t.matched();
        long remaining = t.state().finished() ? 0 : matched < 0 ? -1 : Math.max(0, matched - t.moved() - t.skipped());
        return new RedriveStatus(t.id(), t.dlq(), t.state().wire, t.dryRun(), t.maxPerSecond(), t.canary(),
                t.maxRefailRate(), matched, t.moved(), remaining, t.failed(), t.skipped(), t.skipReason(),
                t.canaryMoved(), t.detail(),
                t.createdBy(), t.createdAt(), t.finishedAt());
    }
}
