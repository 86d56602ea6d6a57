package dev.redrive.redrive;

import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.redrive.config.RedriveConfig;
import dev.redrive.deadletter.EntryFilter;
import dev.redrive.job.FieldValues;
import dev.redrive.redis.LuaScripts;
import io.vertx.mutiny.redis.client.Response;

/**
 * What a redrive's patch does to its first matching entries, before and after: the preview a dry
 * run answers and a proposal shows (redrive-preview.lua, which applies the moves' own patch), so
 * what an operator confirms and an approver approves is what will be written. It reads at most
 * redrive.replay.scan-limit entries and answers at most {@link #SAMPLES}, each value cut to
 * redrive.reads.value-bytes. Blocks (through {@link RedisWait}).
 */
@ApplicationScoped
public class PatchPreview {

    /** Entries a preview shows at most. */
    public static final int SAMPLES = 5;

    /**
     * One entry as the patch would leave it: only the fields it changes, or the reason it would be
     * skipped (null when it applies).
     */
    public record Sample(String id, String skipped, List<Change> changes) {
    }

    /**
     * One field, before and after (null: absent before, removed after), as the API shows values
     * (text, or {"base64": ...}); {@code truncated} when either is cut short.
     */
    public record Change(String field, Object before, Object after, boolean truncated) {
    }

    @Inject
    LuaScripts scripts;

    @Inject
    RedisWait wait;

    @Inject
    RedriveConfig config;

    /** The preview of {@code patch} on what {@code filter} selects up to {@code until} (null: no end); none without a patch. */
    public List<Sample> of(String dlq, EntryFilter filter, String until, RedrivePatch patch) {
        if (patch.isEmpty()) {
            return null;
        }
        List<String> args = new ArrayList<>(filter.scriptArgs());
        args.addAll(List.of(until == null ? "+" : until, patch.stored(), Integer.toString(SAMPLES),
                Integer.toString(config.replay().scanLimit()), Integer.toString(config.reads().valueBytes())));
        Response reply = wait.on(scripts.run(LuaScripts.Script.REDRIVE_PREVIEW, List.of(dlq), args));
        List<Sample> samples = new ArrayList<>();
        for (Response sample : reply) {
            Response flat = sample.get(2);
            List<Change> changes = new ArrayList<>();
            for (int i = 0; i + 6 < flat.size(); i += 7) {
                changes.add(new Change(flat.get(i).toString(), side(flat, i + 1), side(flat, i + 4),
                        cut(flat, i + 1) || cut(flat, i + 4)));
            }
            String reason = sample.get(1).toString();
            samples.add(new Sample(sample.get(0).toString(), reason.isEmpty() ? null : reason, changes));
        }
        return samples;
    }

    private static Object side(Response flat, int at) {
        return "1".equals(flat.get(at).toString()) ? FieldValues.toJson(flat.get(at + 1).toBytes()) : null;
    }

    private static boolean cut(Response flat, int at) {
        return flat.get(at + 1).toBytes().length < flat.get(at + 2).toLong();
    }
}
