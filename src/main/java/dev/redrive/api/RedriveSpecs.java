package dev.redrive.api;

import dev.redrive.deadletter.EntryFilter;
import dev.redrive.redrive.Proposals;
import dev.redrive.redrive.RedrivePatch;
import dev.redrive.redrive.RedriveSpec;

/**
 * The bounds and defaults of a bulk redrive's settings, one copy for every way to ask for one
 * (the API's JSON body, the console's form): each failure is a 400 that names the setting.
 */
public final class RedriveSpecs {

    /** Entries a second when the request names no pace: {@link RedriveSpec#DEFAULT_MAX_PER_SECOND}'s. */
    public static final int DEFAULT_MAX_PER_SECOND = RedriveSpec.DEFAULT_MAX_PER_SECOND;
    public static final int MAX_PER_SECOND = 1_000_000;
    public static final int MAX_CANARY = 10_000;
    public static final double DEFAULT_MAX_REFAIL_RATE = RedriveSpec.DEFAULT_MAX_REFAIL_RATE;
    /** Longest note of a redrive, a proposal or a decision on one, in characters: one bound, Proposals'. */
    public static final int MAX_NOTE = Proposals.MAX_NOTE;

    private RedriveSpecs() {
    }

    /** Any argument but the filter may be null (not given: its default; the patch: none). */
    public static RedriveSpec of(EntryFilter filter, Integer maxPerSecond, Boolean dryRun, Integer canary,
            Double maxRefailRate, String note, RedrivePatch patch) {
        int pace = within("maxPerSecond", maxPerSecond, DEFAULT_MAX_PER_SECOND, MAX_PER_SECOND);
        int canaryJobs = within("canary", canary, 0, MAX_CANARY);
        double refail = maxRefailRate == null ? DEFAULT_MAX_REFAIL_RATE : maxRefailRate;
        if (refail < 0 || refail > 1 || Double.isNaN(refail)) {
            throw ProblemException.badRequest("maxRefailRate must be a number from 0 to 1");
        }
        if (note != null && note.length() > MAX_NOTE) {
            throw ProblemException.badRequest("note is limited to " + MAX_NOTE + " characters");
        }
        return new RedriveSpec(filter, pace, dryRun != null && dryRun, canaryJobs, refail, note, patch);
    }

    private static int within(String name, Integer value, int byDefault, int max) {
        if (value == null) {
            return byDefault;
        }
        if (value < 0 || value > max) {
            throw outOfRange(name, max);
        }
        return value;
    }

    static ProblemException outOfRange(String name, int max) {
        return ProblemException.badRequest(name + " must be a whole number from 0 to " + max);
    }
}
