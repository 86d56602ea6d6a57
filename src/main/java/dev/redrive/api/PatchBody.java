package dev.redrive.api;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

import dev.redrive.job.ReservedField;
import dev.redrive.redrive.RedrivePatch;

/**
 * A bulk redrive's optional {@code patch}, read one way for every door (the API's redrive and
 * proposal bodies, the console's forms, MCP): {@code {"set": {name: "text" | {"base64": "..."}},
 * "remove": [name, ...], "json": {field: {merge patch}}}}. It fails closed: an unknown or null
 * member, a patch that changes nothing, a field named twice, a reserved field or a merge patch
 * that is not an object is a 400 naming it; a patch above redrive.replay.max-body-bytes a 413.
 */
public final class PatchBody {

    private static final Set<String> KNOWN = Set.of("set", "remove", "json");
    /** Deeper merge patches are refused: lib/patch.lua reads objects up to 64 levels deep. */
    static final int MAX_DEPTH = 32;

    private PatchBody() {
    }

    /** The patch {@code node} describes; {@link RedrivePatch#NONE} when it is left out. */
    public static RedrivePatch parse(JsonNode node, int maxBytes) {
        if (node == null) {
            return RedrivePatch.NONE;
        }
        if (!node.isObject()) {
            throw bad("patch must be an object: {\"set\": {...}, \"remove\": [...], \"json\": {...}}");
        }
        node.fieldNames().forEachRemaining(name -> {
            if (!KNOWN.contains(name)) {
                throw bad("unknown patch property '" + name + "'; known: " + KNOWN);
            }
            if (node.get(name).isNull()) {
                throw bad("patch." + name + " is null; leave it out");
            }
        });
        Set<String> named = new LinkedHashSet<>();
        Map<String, byte[]> set = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = object(node, "set").fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> field = it.next();
            set.put(name(field.getKey(), named), ReplayBody.value(field.getKey(), field.getValue()));
        }
        List<String> remove = new ArrayList<>();
        JsonNode removed = node.get("remove");
        if (removed != null) {
            if (!removed.isArray()) {
                throw bad("patch.remove must be an array of field names");
            }
            for (JsonNode name : removed) {
                if (!name.isTextual()) {
                    throw bad("patch.remove must hold field names as strings (got " + name + ")");
                }
                remove.add(name(name.asText(), named));
            }
        }
        Map<String, String> json = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = object(node, "json").fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> field = it.next();
            if (!field.getValue().isObject()) {
                throw bad("patch.json." + field.getKey() + " must be a JSON merge patch object (RFC 7396); to replace "
                        + "the whole field, use patch.set");
            }
            if (depth(field.getValue()) > MAX_DEPTH) {
                throw bad("patch.json." + field.getKey() + " is nested deeper than " + MAX_DEPTH + " levels");
            }
            json.put(name(field.getKey(), named), field.getValue().toString());
        }
        RedrivePatch patch = new RedrivePatch(set, remove, json);
        if (patch.isEmpty()) {
            throw bad("the patch changes nothing; leave it out to move the entries as they were parked");
        }
        ReplayPatches.requireWithin(patch.size(), maxBytes);
        return patch;
    }

    private static JsonNode object(JsonNode node, String member) {
        JsonNode value = node.path(member);
        if (!value.isMissingNode() && !value.isObject()) {
            throw bad("patch." + member + " must be an object of field name to value");
        }
        return value;
    }

    /** A field name the patch may change, each once. */
    private static String name(String name, Set<String> named) {
        if (name.isEmpty()) {
            throw bad("a patched field name must not be empty");
        }
        for (ReservedField reserved : ReservedField.values()) {
            if (reserved.wireName().equals(name)) {
                throw bad("'" + name + "' is a field redrive writes itself (README, \"Reserved fields\"); it can't be patched");
            }
        }
        if (!named.add(name)) {
            throw bad("the patch names field '" + name + "' more than once (set, remove and json each change a "
                    + "field on their own)");
        }
        return name;
    }

    private static int depth(JsonNode node) {
        int deepest = 0;
        for (JsonNode child : node) {
            deepest = Math.max(deepest, depth(child));
        }
        return node.isContainerNode() ? deepest + 1 : 0;
    }

    private static ProblemException bad(String detail) {
        return ProblemException.badRequest(detail);
    }
}
