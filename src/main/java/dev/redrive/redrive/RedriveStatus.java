package dev.redrive.redrive;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;


/**
 * A redrive as the API reports it (docs/API.md); the JSON is these components, by name.
 *
 * @param matched  entries matching the filter (known once counting is done, else -1)
 * @param remaining matching entries not yet moved or skipped (0 once finished, -1 while counting)
 * @param failed   jobs this task moved that were parked again
 * @param skipped  matching entries it could not move (origin not allowed, other hash slot, no snapshot, origin
 *                 key of another type, a patch that does not apply)
 * @param skipReason why, when an origin's key is of another type than a stream or a patch did not apply ("" else)
 * @param patch    what each moved entry changes (null: none), as the request gave it (RedrivePatch#view)
 * @param skippedEntries the first entries the patch could not apply to, each with its reason
 * @param preview  a dry run's patch on its first matching entries, before and after (null: not a dry run with a patch)
 */
public record RedriveStatus(String id, String dlq, String state, boolean dryRun, int maxPerSecond, int canary,
        double maxRefailRate, long matched, long moved, long remaining, long failed, long skipped, String skipReason,
        long canaryMoved,
        String detail, String createdBy, Instant createdAt, Instant finishedAt, RedrivePatch patch,
        List<SkippedEntry> skippedEntries, List<PatchPreview.Sample> preview) {

    /** An entry a redrive left parked, and why. */
    public record SkippedEntry(String id, String reason) {
    }

    static RedriveStatus of(RedriveTask t, List<PatchPreview.Sample> preview) {
        long matched = t.state() == RedriveState.COUNTING ? -1 : t.matched();
        long remaining = t.state().finished() ? 0 : matched < 0 ? -1 : Math.max(0, matched - t.moved() - t.skipped());
        return new RedriveStatus(t.id(), t.dlq(), t.state().wire, t.dryRun(), t.maxPerSecond(), t.canary(),
                t.maxRefailRate(), matched, t.moved(), remaining, t.failed(), t.skipped(), t.skipReason(),
                t.canaryMoved(), t.detail(),
                t.createdBy(), t.createdAt(), t.finishedAt(), RedrivePatch.fromStored(t.patch()),
                skipped(t.skippedEntries()), preview);
    }

    private static List<SkippedEntry> skipped(String lines) {
        List<SkippedEntry> entries = new ArrayList<>();
        if (lines != null) {
            for (String line : lines.split("\n")) {
                int space = line.indexOf(' ');
                if (space > 0) {
                    entries.add(new SkippedEntry(line.substring(0, space), line.substring(space + 1)));
                }
            }
        }
        return entries;
    }
}
