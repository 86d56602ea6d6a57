package dev.redrive.redrive;

import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A bulk redrive as its task hash holds it ({@code redis/RedisKeys#redriveTask}): the one place the
 * hash's fields are named. The hash is the task's whole state, so any process can report it, cancel
 * it or take it over; the scripts keep its cursors and counters, and the fields only they use
 * ({@link Field#scriptOnly}) are not part of this record.
 *
 * @param filter the filter as JSON (RedriveTaskStore reads it); kept as stored so a status never
 *               depends on it
 * @param until  the newest dead-letter id when the task began: jobs parked later are not its own
 * @param skipReason why entries were skipped when an origin can't be written (a key of another type); "" else
 * @param patch  the patch each moved entry gets, as {@link RedrivePatch#stored} wrote it ("": none)
 * @param skippedEntries the first entries a patch could not apply to, one "<id> <reason>" line each
 */
public record RedriveTask(String id, String dlq, RedriveState state, String filter, int maxPerSecond, boolean dryRun,
        int canary, double maxRefailRate, String note, String until, long matched, long moved, long failed,
        long skipped, long canaryMoved, String detail, String skipReason, String createdBy, Instant createdAt,
        Instant finishedAt, String patch, String skippedEntries) {

    /** The task hash's fields, as the hash and the scripts spell them. */
    public enum Field {
        ID("id"), DLQ("dlq"), STATE("state"), FILTER("filter"), MAX_PER_SECOND("max-per-second"), DRY_RUN("dry-run"),
        CANARY("canary"), MAX_REFAIL_RATE("max-refail-rate"), NOTE("note"), UNTIL("until"), MATCHED("matched"),
        MOVED("moved"),
        /** Moved jobs parked again: dead-letter.lua counts them. */
        FAILED("failed"),
        SKIPPED("skipped"),
        /** Why entries were skipped, when an origin of another type than a stream is the cause (redrive-step.lua). */
        SKIP_REASON("skip-reason"),
        CANARY_MOVED("canary-moved"), DETAIL("detail"), CREATED_BY("created-by"),
        CREATED_AT("created-at"), FINISHED_AT("finished-at"),
        /** The patch (lib/patch.lua reads it in every step). */
        PATCH("patch"),
        /** The first entries the patch could not apply to, "<id> <reason>" a line (redrive-step.lua). */
        SKIPPED_ENTRIES("skipped-entries"),
        /** The runner holding the task (redrive-claim.lua). */
        OWNER("owner", true),
        /** Until when, epoch ms, the owner holds it; 0 gives it up at once. */
        LEASE_UNTIL("lease-until"),
        /** The last entry redrive-step.lua examined. */
        CURSOR("cursor", true),
        /** The last entry redrive-count.lua examined. */
        COUNT_CURSOR("count-cursor", true);

        public final String wire;
        public final boolean scriptOnly;

        Field(String wire) {
            this(wire, false);
        }

        Field(String wire, boolean scriptOnly) {
            this.wire = wire;
            this.scriptOnly = scriptOnly;
        }

        public static Set<String> wires() {
            return Arrays.stream(values()).map(f -> f.wire).collect(Collectors.toUnmodifiableSet());
        }
    }

    /** A task as it is stored when it begins: counting, nothing counted or moved yet. */
    static RedriveTask begun(String id, String dlq, String filterJson, RedriveSpec spec, String until, String actor,
            Instant at) {
        return new RedriveTask(id, dlq, RedriveState.COUNTING, filterJson, spec.maxPerSecond(), spec.dryRun(),
                spec.canary(), spec.maxRefailRate(), spec.note() == null ? "" : spec.note(),
                until == null ? "0-0" : until, 0, 0, 0, 0, 0, null, "", actor, at, null, spec.patch().stored(), "");
    }

    /** The fields to write, every one that is set (a task begins without detail or finished-at). */
    Map<String, String> toHash() {
        Map<String, String> hash = new LinkedHashMap<>();
        put(hash, Field.ID, id);
        put(hash, Field.DLQ, dlq);
        put(hash, Field.STATE, state.wire);
        put(hash, Field.FILTER, filter);
        put(hash, Field.MAX_PER_SECOND, Integer.toString(maxPerSecond));
        put(hash, Field.DRY_RUN, Boolean.toString(dryRun));
        put(hash, Field.CANARY, Integer.toString(canary));
        put(hash, Field.MAX_REFAIL_RATE, Double.toString(maxRefailRate));
        put(hash, Field.NOTE, note);
        put(hash, Field.UNTIL, until);
        put(hash, Field.MATCHED, Long.toString(matched));
        put(hash, Field.MOVED, Long.toString(moved));
        put(hash, Field.FAILED, Long.toString(failed));
        put(hash, Field.SKIPPED, Long.toString(skipped));
        put(hash, Field.CANARY_MOVED, Long.toString(canaryMoved));
        put(hash, Field.DETAIL, detail);
        put(hash, Field.SKIP_REASON, skipReason == null || skipReason.isEmpty() ? null : skipReason);
        put(hash, Field.CREATED_BY, createdBy);
        put(hash, Field.CREATED_AT, createdAt == null ? null : createdAt.toString());
        put(hash, Field.FINISHED_AT, finishedAt == null ? null : finishedAt.toString());
        put(hash, Field.PATCH, patch == null || patch.isEmpty() ? null : patch);
        return hash;
    }

    /**
     * The task of stream {@code dlq} with id {@code id} from its hash. Counters the scripts keep
     * read as 0 when absent; a hash without a state is not a task.
     */
    static RedriveTask fromHash(String dlq, String id, Map<String, String> hash) {
        return new RedriveTask(id, dlq, RedriveState.of(hash.get(Field.STATE.wire)), hash.get(Field.FILTER.wire),
                (int) number(hash, Field.MAX_PER_SECOND), Boolean.parseBoolean(hash.get(Field.DRY_RUN.wire)),
                (int) number(hash, Field.CANARY), rate(hash.get(Field.MAX_REFAIL_RATE.wire)), hash.get(Field.NOTE.wire),
                hash.get(Field.UNTIL.wire), number(hash, Field.MATCHED), number(hash, Field.MOVED),
                number(hash, Field.FAILED), number(hash, Field.SKIPPED), number(hash, Field.CANARY_MOVED),
                hash.getOrDefault(Field.DETAIL.wire, ""), hash.getOrDefault(Field.SKIP_REASON.wire, ""),
                hash.get(Field.CREATED_BY.wire),
                instant(hash.get(Field.CREATED_AT.wire)), instant(hash.get(Field.FINISHED_AT.wire)),
                hash.getOrDefault(Field.PATCH.wire, ""), hash.getOrDefault(Field.SKIPPED_ENTRIES.wire, ""));
    }

    /** The same task, moved to {@code to} (as the store wrote it). */
    RedriveTask in(RedriveState to) {
        return new RedriveTask(id, dlq, to, filter, maxPerSecond, dryRun, canary, maxRefailRate, note, until, matched,
                moved, failed, skipped, canaryMoved, detail, skipReason, createdBy, createdAt, finishedAt, patch,
                skippedEntries);
    }

    /** Who the task's moves are audited as. */
    String actor() {
        return createdBy == null ? "redrive" : createdBy;
    }

    /** The fields that end a task; the lease goes with them. */
    static Map<String, String> finish(RedriveState state, String detail, Instant at) {
        return Map.of(Field.STATE.wire, state.wire, Field.FINISHED_AT.wire, at.toString(), Field.DETAIL.wire, detail,
                Field.LEASE_UNTIL.wire, "0");
    }

    /** The field that gives the lease up at once, so the next runner need not wait for it to run out. */
    static Map<String, String> released() {
        return Map.of(Field.LEASE_UNTIL.wire, "0");
    }

    static Map<String, String> moved(RedriveState to) {
        return Map.of(Field.STATE.wire, to.wire);
    }

    private static void put(Map<String, String> hash, Field field, String value) {
        if (value != null) {
            hash.put(field.wire, value);
        }
    }

    private static long number(Map<String, String> hash, Field field) {
        try {
            return Long.parseLong(hash.getOrDefault(field.wire, "0"));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static double rate(String value) {
        return value == null ? 0 : Double.parseDouble(value);
    }

    private static Instant instant(String value) {
        return value == null || value.isEmpty() ? null : Instant.parse(value);
    }
}
