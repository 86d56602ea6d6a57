package dev.redrive.api;

import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.redrive.deadletter.Excerpt;
import dev.redrive.job.FieldValues;

/**
 * A value that may have been cut short, as JSON. Whole values look as they always did (text, or
 * {@code {"base64": "..."}}); a cut one is {@code {"truncated": true, "size": <full bytes>,
 * "text": "<first bytes>"}}, or {@code "base64"} instead of {@code "text"} when its first bytes
 * are not UTF-8, so a reader can always tell a shown value from a partial one.
 */
final class ValueJson {

    private ValueJson() {
    }

    static Object of(Excerpt.Value value) {
        if (!value.truncated()) {
            return FieldValues.toJson(value.bytes());
        }
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("truncated", true);
        json.put("size", value.size());
        String text = text(value.bytes());
        if (text != null) {
            json.put("text", text);
        } else {
            json.put(FieldValues.BASE64, Base64.getEncoder().encodeToString(value.bytes()));
        }
        return json;
    }

    static Map<String, Object> of(Map<String, Excerpt.Value> fields) {
        Map<String, Object> json = new LinkedHashMap<>();
        fields.forEach((name, value) -> json.put(name, of(value)));
        return json;
    }

    /**
     * The cut bytes as text when they are UTF-8 but for a character the cut split (up to three
     * trailing bytes of it), else null.
     */
    private static String text(byte[] cut) {
        for (int drop = 0; drop <= Math.min(3, cut.length); drop++) {
            String text = FieldValues.utf8(drop == 0 ? cut : Arrays.copyOf(cut, cut.length - drop));
            if (text != null) {
                return text;
            }
        }
        return null;
    }
}
