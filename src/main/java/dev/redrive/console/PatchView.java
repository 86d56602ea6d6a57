package dev.redrive.console;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import dev.redrive.job.FieldValues;
import dev.redrive.redrive.PatchPreview;
import dev.redrive.redrive.RedrivePatch;

/**
 * A bulk redrive's patch as the console shows it on a dry run's page and a proposal's: the patch as
 * the API takes it, and its preview on the first matching entries as a diff of each changed field
 * (the diff a single patched replay shows, {@link LineDiff}), so the operator who confirms and the
 * one who approves see what will be written.
 *
 * @param json    the patch as JSON text, or null when there is none
 * @param previewed whether there is a preview (a dry run's, a waiting proposal's); a running task has none
 * @param samples the preview, or empty
 */
public record PatchView(String json, boolean previewed, List<Sample> samples) {

    /** One previewed entry: the reason it would be skipped, or its changed fields. */
    public record Sample(String id, String url, String skipped, List<Field> fields) {
    }

    /** One changed field, as lines kept, removed and added; {@code truncated} when a side was cut short. */
    public record Field(String name, List<LineDiff.Line> diff, boolean truncated) {
    }

    static PatchView of(String dlq, RedrivePatch patch, List<PatchPreview.Sample> preview) {
        if (patch == null || patch.isEmpty()) {
            return new PatchView(null, false, List.of());
        }
        List<Sample> samples = preview == null ? List.of() : preview.stream()
                .map(s -> new Sample(s.id(), ConsoleUrls.entry(dlq, s.id()), s.skipped(), s.changes().stream()
                        .map(c -> new Field(c.field(), diff(c.before(), c.after()), c.truncated()))
                        .toList()))
                .toList();
        return new PatchView(patch.view().toPrettyString(), preview != null, samples);
    }

    /** A field added shows only added lines, a field removed only removed ones. */
    private static List<LineDiff.Line> diff(Object before, Object after) {
        if (before == null || after == null) {
            char op = before == null ? '+' : '-';
            return Arrays.stream(text(before == null ? after : before).split("\n", -1))
                    .map(line -> new LineDiff.Line(op, line)).toList();
        }
        return LineDiff.of(text(before), text(after));
    }

    /** A side of a change as text, a byte value as its base64. */
    private static String text(Object value) {
        return value instanceof Map<?, ?> bytes ? FieldValues.BASE64 + ": " + bytes.get(FieldValues.BASE64) : value.toString();
    }
}
