package dev.redrive.redrive;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.util.RawValue;

import dev.redrive.job.FieldValues;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * What a bulk redrive changes in each entry it moves: fields to set (any bytes), fields to
 * remove, and JSON Merge Patches (RFC 7396) for fields holding a JSON object. lib/patch.lua applies
 * it in the step that moves each entry, so the runner never sees the entries; this record is the
 * patch as the API, the console and MCP give it (api/PatchBody checks it) and as a task or a
 * proposal stores it ({@link #stored}, the one form lib/patch.lua reads).
 *
 * @param set    field name to value, in the order given
 * @param remove field names
 * @param json   field name to a merge patch's JSON text (an object), kept as text so its numbers are
 *               never read as doubles on the way to the script
 */
// Statuses and proposals carry it, and Jackson writes it through view() (@JsonValue): a native image
// has that method only when registered.
@RegisterForReflection
public record RedrivePatch(Map<String, byte[]> set, List<String> remove, Map<String, String> json) {

    public static final RedrivePatch NONE = new RedrivePatch(Map.of(), List.of(), Map.of());

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    /** Reads only what {@link #stored} wrote: strings and arrays, no numbers to round. */
    private static final ObjectMapper STORED = new ObjectMapper();

    public RedrivePatch {
        set = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(set));
        remove = List.copyOf(remove);
        json = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(json));
    }

    public boolean isEmpty() {
        return set.isEmpty() && remove.isEmpty() && json.isEmpty();
    }

    /** Every field it changes, each once: what audit records and previews name. */
    public List<String> names() {
        LinkedHashSet<String> names = new LinkedHashSet<>(set.keySet());
        names.addAll(remove);
        names.addAll(json.keySet());
        return List.copyOf(names);
    }

    /** The form a task or proposal hash keeps ("" for none): lib/patch.lua's header describes it. */
    public String stored() {
        if (isEmpty()) {
            return "";
        }
        ObjectNode root = NODES.objectNode();
        ArrayNode sets = root.putArray("set");
        set.forEach((name, value) -> sets.addArray().add(name).add(Base64.getEncoder().encodeToString(value)));
        ArrayNode removes = root.putArray("remove");
        remove.forEach(removes::add);
        ArrayNode merges = root.putArray("json");
        json.forEach((name, text) -> merges.addArray().add(name).add(text));
        return root.toString();
    }

    /** The patch a hash keeps, as {@link #stored} wrote it (null or "": none). */
    static RedrivePatch fromStored(String text) {
        if (text == null || text.isEmpty()) {
            return NONE;
        }
        JsonNode stored;
        try {
            stored = STORED.readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("unreadable stored patch", e);
        }
        Map<String, byte[]> set = new LinkedHashMap<>();
        stored.path("set").forEach(pair -> set.put(pair.get(0).asText(), Base64.getDecoder().decode(pair.get(1).asText())));
        List<String> remove = new ArrayList<>();
        stored.path("remove").forEach(name -> remove.add(name.asText()));
        Map<String, String> json = new LinkedHashMap<>();
        stored.path("json").forEach(pair -> json.put(pair.get(0).asText(), pair.get(1).asText()));
        return new RedrivePatch(set, remove, json);
    }

    /**
     * The patch as the API shows it and takes it back: {@code {"set": {name: text | {"base64": ...}},
     * "remove": [...], "json": {field: merge patch}}}, each merge patch written as its own text.
     * Null when there is none.
     */
    @JsonValue
    public JsonNode view() {
        if (isEmpty()) {
            return null;
        }
        ObjectNode root = NODES.objectNode();
        if (!set.isEmpty()) {
            ObjectNode sets = root.putObject("set");
            set.forEach((name, value) -> sets.putPOJO(name, FieldValues.toJson(value)));
        }
        if (!remove.isEmpty()) {
            ArrayNode removes = root.putArray("remove");
            remove.forEach(removes::add);
        }
        if (!json.isEmpty()) {
            ObjectNode merges = root.putObject("json");
            json.forEach((name, text) -> merges.putRawValue(name, new RawValue(text)));
        }
        return root;
    }

    /** Bytes the names and values hold, against the replay body limit (api/ReplayPatches). */
    public long size() {
        long size = 0;
        for (Map.Entry<String, byte[]> field : set.entrySet()) {
            size += field.getKey().getBytes(StandardCharsets.UTF_8).length + field.getValue().length;
        }
        for (String name : remove) {
            size += name.getBytes(StandardCharsets.UTF_8).length;
        }
        for (Map.Entry<String, String> field : json.entrySet()) {
            size += field.getKey().getBytes(StandardCharsets.UTF_8).length
                    + field.getValue().getBytes(StandardCharsets.UTF_8).length;
        }
        return size;
    }
}
