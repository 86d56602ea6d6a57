package dev.redrive.api;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

import dev.redrive.deadletter.EntryFilter;
import dev.redrive.redrive.RedriveSpec;

/**
 * The JSON body of a bulk redrive, read one way for every door that takes one: POST .../redrives,
 * POST .../proposals and the MCP tools. It fails closed: an unknown field, a null criterion or a
 * value of the wrong type is a 400 that names it, never a wider selection.
 */
public final class RedriveBody {

    private static final Set<String> KNOWN = Set.of("filter", "maxPerSecond", "dryRun", "canary", "maxRefailRate", "note",
            "patch");
    private static final Set<String> PROPOSED = Set.of("filter", "maxPerSecond", "canary", "maxRefailRate", "note", "patch");
    private static final Set<String> FILTER = Set.of("origin", "job", "failure", "fingerprint", "deadFrom", "deadTo", "ids",
            "text");

    private RedriveBody() {
    }

    /**
     * The redrive a JSON body asks for; {@code mayDryRun} false for a proposal, which counts by itself
     * and whose body has no dryRun; {@code maxPatchBytes} bounds its patch (redrive.replay.max-body-bytes).
     */
    public static RedriveSpec spec(JsonNode root, boolean mayDryRun, int maxPatchBytes) {
        Set<String> known = mayDryRun ? KNOWN : PROPOSED;
        if (root == null) {
            throw ProblemException.badRequest("a redrive needs a JSON body; {\"dryRun\": true} counts everything");
        }
        if (!root.isObject()) {
            throw ProblemException.badRequest("the body must be a JSON object");
        }
        root.fieldNames().forEachRemaining(name -> {
            if (!known.contains(name)) {
                throw ProblemException.badRequest("unknown property '" + name + "'; known: " + known);
            }
        });
        Double maxRefail = null;
        JsonNode rate = root.get("maxRefailRate");
        if (rate != null && !rate.isNull()) {
            if (!rate.isNumber()) {
                throw ProblemException.badRequest("maxRefailRate must be a number from 0 to 1");
            }
            maxRefail = rate.asDouble();
        }
        JsonNode dry = root.get("dryRun");
        if (dry != null && !dry.isNull() && !dry.isBoolean()) {
            throw ProblemException.badRequest("dryRun must be true or false");
        }
        return RedriveSpecs.of(filter(root.get("filter")), integer(root, "maxPerSecond", RedriveSpecs.MAX_PER_SECOND),
                dry != null && dry.asBoolean(), integer(root, "canary", RedriveSpecs.MAX_CANARY), maxRefail,
                text(root, "note"), PatchBody.parse(root.get("patch"), maxPatchBytes));
    }

    private static EntryFilter filter(JsonNode f) {
        if (f == null) {
            return EntryFilter.ALL;
        }
        // Only a left-out filter or criterion selects any: an explicit null is what a client's empty
        // selection often serialises to (a nil slice in Go), so it must not widen a redrive.
        if (!f.isObject()) {
            throw ProblemException.badRequest("filter must be an object");
        }
        f.fieldNames().forEachRemaining(name -> {
            if (!FILTER.contains(name)) {
                throw ProblemException.badRequest("unknown filter '" + name + "'; known: " + FILTER);
            }
        });
        f.fieldNames().forEachRemaining(name -> {
            if (f.get(name).isNull()) {
                throw ProblemException.badRequest("filter." + name + " is null; leave it out to select any " + name);
            }
        });
        List<String> ids = null;
        JsonNode idNodes = f.get("ids");
        if (idNodes != null) {
            if (!idNodes.isArray()) {
                throw ProblemException.badRequest("filter.ids must be an array of entry ids");
            }
            ids = new ArrayList<>();
            for (JsonNode n : idNodes) {
                if (!n.isTextual()) {
                    throw ProblemException.badRequest("filter.ids must hold entry ids as strings (got " + n + ")");
                }
                ids.add(n.asText());
            }
        }
        return Filters.of(text(f, "origin"), text(f, "job"), text(f, "failure"), text(f, "fingerprint"),
                text(f, "deadFrom"), text(f, "deadTo"), ids, text(f, "text"));
    }

    private static String text(JsonNode node, String name) {
        JsonNode v = node.get(name);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isTextual()) {
            throw ProblemException.badRequest(name + " must be a string");
        }
        return v.asText();
    }

    /** A whole number the body gives (range checked by RedriveSpecs), or null when left out. */
    private static Integer integer(JsonNode node, String name, int max) {
        JsonNode v = node.get(name);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isInt()) {
            throw RedriveSpecs.outOfRange(name, max);
        }
        return v.asInt();
    }
}
