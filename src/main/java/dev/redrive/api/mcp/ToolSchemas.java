package dev.redrive.api.mcp;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.redrive.deadletter.EntryFilter;

/**
 * The JSON Schemas of the tools' inputs. Each closes its properties (additionalProperties false):
 * an argument a tool does not know is an error, never ignored, as an unknown field is in the API.
 */
final class ToolSchemas {

    private ToolSchemas() {
    }

    static final Map<String, Object> DLQ = string("A dead-letter stream's name, as list_dead_letter_streams gives it");

    static final Map<String, Object> FILTER = Map.of("type", "object", "additionalProperties", false,
            "description", "What to select; every criterion left out selects any, an empty filter selects everything",
            "properties", filterProperties());

    static Map<String, Object> object(List<String> required, Object... properties) {
        Map<String, Object> props = new LinkedHashMap<>();
        for (int i = 0; i < properties.length; i += 2) {
            props.put((String) properties[i], properties[i + 1]);
        }
        return Map.of("type", "object", "properties", props, "required", required, "additionalProperties", false);
    }

    static Map<String, Object> string(String description) {
        return Map.of("type", "string", "description", description);
    }

    static Map<String, Object> integer(String description, int min, int max) {
        return Map.of("type", "integer", "minimum", min, "maximum", max, "description", description);
    }

    static Map<String, Object> number(String description) {
        return Map.of("type", "number", "minimum", 0, "maximum", 1, "description", description);
    }

    static Map<String, Object> filterProperties() {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("origin", string("Only jobs from this origin stream"));
        p.put("job", string("Only jobs with this job name"));
        p.put("failure", Map.of("type", "string", "enum", EntryFilter.FAILURE_KINDS));
        p.put("fingerprint", string("Only this cause (12 hex digits, from list_causes)"));
        p.put("deadFrom", string("Only jobs parked at or after this instant (ISO-8601)"));
        p.put("deadTo", string("Only jobs parked before this instant (ISO-8601)"));
        p.put("ids", Map.of("type", "array", "items", Map.of("type", "string"), "minItems", 1,
                "description", "Only these dead-letter ids"));
        p.put("text", string("Only records whose reason or error type contains this text"));
        return p;
    }

    /** The arguments of a redrive or a proposal: the API's body (docs/API.md), less dryRun. */
    static Map<String, Object> redrive() {
        return object(List.of("dlq"), "dlq", DLQ, "filter", FILTER,
                "maxPerSecond", integer("Entries a second at most; 0 means no limit. Defaults to 100", 0, 1_000_000),
                "canary", integer("Entries to move first and wait for. Defaults to 0", 0, 10_000),
                "maxRefailRate", number("Share of the canary that may fail again before the task aborts. Defaults to 0.5"),
                "note", string("Why: shown to the operator who approves it, and audited"),
                "patch", PATCH);
    }

    /** A bulk redrive's patch (api/PatchBody reads it): each moved entry changes as it says. */
    static final Map<String, Object> PATCH = Map.of("type", "object", "additionalProperties", false, "minProperties", 1,
            "description", "What each moved entry changes (README, \"Patching a cause\"); get_proposal shows a "
                    + "preview of it on the first entries, before and after",
            "properties", Map.of(
                    "set", Map.of("type", "object", "description", "Field name to its new value: a string, or "
                            + "{\"base64\": \"...\"} for bytes", "additionalProperties",
                            Map.of("oneOf", List.of(Map.of("type", "string"), Map.of("type", "object",
                                    "required", List.of("base64"), "additionalProperties", false, "properties",
                                    Map.of("base64", Map.of("type", "string")))))),
                    "remove", Map.of("type", "array", "items", Map.of("type", "string"), "uniqueItems", true,
                            "description", "Field names to remove"),
                    "json", Map.of("type", "object", "description", "Field name to a JSON Merge Patch (RFC 7396) for "
                            + "a field holding a JSON object; members it does not name keep their exact text; an entry "
                            + "whose field is missing or not a JSON object is skipped, with its reason",
                            "additionalProperties", Map.of("type", "object"))));
}
