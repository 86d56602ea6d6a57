package dev.redrive.api;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

import dev.redrive.job.FieldValues;

/**
 * The optional body of a replay: {@code {"fields": {name: "text" | {"base64": "..."}}, "note": "why"}}.
 * Parsed by hand so every malformed body gets a precise 400, and patch values keep their bytes.
 */
record ReplayBody(Map<String, byte[]> patch, String note) {

    private static final Set<String> KNOWN = Set.of("fields", "note");

    static ReplayBody parse(JsonNode root, int maxBytes) {
        if (root == null) {
            return new ReplayBody(Map.of(), null); // no body: replay the snapshot as it is
        }
        if (!root.isObject()) {
            throw ProblemException.badRequest("the body must be a JSON object: {\"fields\": {...}, \"note\": \"...\"}");
        }
        root.fieldNames().forEachRemaining(name -> {
            if (!KNOWN.contains(name)) {
                throw ProblemException.badRequest("unknown property '" + name + "'; a replay body has fields and note");
            }
        });
        Map<String, byte[]> patch = new LinkedHashMap<>();
        JsonNode fields = root.get("fields");
        if (fields != null && !fields.isNull()) {
            if (!fields.isObject()) {
                throw ProblemException.badRequest("'fields' must be an object of field name to value");
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = fields.fields(); it.hasNext();) {
                Map.Entry<String, JsonNode> field = it.next();
                if (field.getKey().isEmpty()) {
                    throw ProblemException.badRequest("a field name must not be empty");
                }
                byte[] value = value(field.getKey(), field.getValue());
                patch.put(field.getKey(), value);
            }
        }
        ReplayPatches.requireWithin(patch, maxBytes);
        JsonNode note = root.get("note");
        if (note != null && !note.isNull() && !note.isTextual()) {
            throw ProblemException.badRequest("'note' must be a string");
        }
        return new ReplayBody(patch, note == null || note.isNull() ? null : note.asText());
    }

    static byte[] value(String name, JsonNode value) {
        if (value.isTextual()) {
            return value.asText().getBytes(StandardCharsets.UTF_8);
        }
        if (value.isObject() && value.size() == 1 && value.get(FieldValues.BASE64) != null
                && value.get(FieldValues.BASE64).isTextual()) {
            try {
                return Base64.getDecoder().decode(value.get(FieldValues.BASE64).asText());
            } catch (IllegalArgumentException e) {
                throw ProblemException.badRequest("field '" + name + "': the base64 value is not valid base64");
            }
        }
        throw ProblemException.badRequest("field '" + name + "' must be a string or {\"base64\": \"...\"}");
    }
}
