package dev.redrive.console;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.redrive.deadletter.Excerpt;
import dev.redrive.job.FieldValues;

/**
 * One field of a parked job's snapshot as the entry page shows it: JSON pretty-printed, other
 * text as it is, bytes that are not UTF-8 as base64 and hex; a field named in
 * {@code redrive.console.redact-fields} masked unless revealed.
 *
 * @param format    json, text or binary
 * @param text      what is shown (pretty JSON, the text, or base64); "" when masked
 * @param hex       the first {@value #HEX_BYTES} bytes in hex, for binary values only
 * @param raw       the text exactly as stored, which a patched replay edits; null unless whole and UTF-8
 */
public record FieldView(String name, String format, String text, String hex, boolean masked, boolean truncated,
        long size, String raw) {

    static final int HEX_BYTES = 256;
    public static final String MASK = "••••••••";

    /** The snapshot's fields in order; {@code redacted} names are masked unless {@code reveal}. */
    static List<FieldView> all(Map<String, Excerpt.Value> snapshot, Set<String> redacted, boolean reveal,
            ObjectMapper json) {
        List<FieldView> views = new ArrayList<>();
        snapshot.forEach((name, value) -> views.add(of(name, value, redacted.contains(name) && !reveal, json)));
        return views;
    }

    static FieldView of(String name, Excerpt.Value value, boolean masked, ObjectMapper json) {
        if (masked) {
            return new FieldView(name, "masked", MASK, "", true, value.truncated(), value.size(), null);
        }
        String text = value.truncated() ? null : FieldValues.utf8(value.bytes());
        if (text == null && value.truncated()) {
            text = FieldValues.utf8(value.bytes());
        }
        if (text == null) {
            byte[] head = Arrays.copyOf(value.bytes(), Math.min(HEX_BYTES, value.bytes().length));
            return new FieldView(name, "binary", Base64.getEncoder().encodeToString(value.bytes()),
                    HexFormat.ofDelimiter(" ").formatHex(head), false, value.truncated(), value.size(), null);
        }
        String pretty = value.truncated() ? null : pretty(text, json);
        return new FieldView(name, pretty != null ? "json" : "text", pretty != null ? pretty : text, "", false,
                value.truncated(), value.size(), value.truncated() ? null : text);
    }

    /** The text as indented JSON when it is a JSON object or array, else null. */
    static String pretty(String text, ObjectMapper json) {
        String trimmed = text.trim();
        if (!(trimmed.startsWith("{") || trimmed.startsWith("["))) {
            return null;
        }
        try {
            JsonNode node = json.readTree(trimmed);
            return json.writerWithDefaultPrettyPrinter().writeValueAsString(node);
        } catch (Exception e) {
            return null;
        }
    }

    public boolean editable() {
        return raw != null;
    }
}
