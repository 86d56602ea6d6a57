package dev.redrive.api;

import java.nio.charset.StandardCharsets;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.redrive.config.RedriveConfig;
import dev.redrive.redrive.RedrivePatch;
import dev.redrive.redrive.RedriveSpec;

/**
 * The API's JSON request bodies, each held to redrive.replay.max-body-bytes ({@link Requests#json}
 * reads them): a redrive's or a proposal's, a replay's (whose patch may take the limit, its JSON
 * twice that), and a proposal decision's note.
 */
@ApplicationScoped
public class JsonBodies {

    @Inject
    ObjectMapper mapper;

    @Inject
    RedriveConfig config;

    /** The body, or null when there is none. */
    JsonNode read(byte[] body) {
        return Requests.json(mapper, body, config.replay().maxBodyBytes());
    }

    /**
     * The bulk redrive a JSON body (or an MCP call's arguments) asks for, its patch held to
     * redrive.replay.max-body-bytes like a replay's; {@code mayDryRun} false for a proposal.
     */
    public RedriveSpec redrive(JsonNode root, boolean mayDryRun) {
        return RedriveBody.spec(root, mayDryRun, config.replay().maxBodyBytes());
    }

    /** A patch typed into a console form as JSON text; none when the text is blank. */
    public RedrivePatch patch(String text) {
        if (text == null || text.isBlank()) {
            return RedrivePatch.NONE;
        }
        return PatchBody.parse(read(text.getBytes(StandardCharsets.UTF_8)), config.replay().maxBodyBytes());
    }

    ReplayBody replay(byte[] body) {
        int max = config.replay().maxBodyBytes();
        return ReplayBody.parse(Requests.json(mapper, body, max * 2), max);
    }

    /** An approval's or a rejection's optional {"note": "why"} as sent, "" when there is none (Proposals.note keeps it). */
    String note(byte[] body) {
        JsonNode root = read(body);
        if (root == null) {
            return "";
        }
        if (!root.isObject()) {
            throw ProblemException.badRequest("the body must be a JSON object, {\"note\": \"why\"}");
        }
        root.fieldNames().forEachRemaining(name -> {
            if (!name.equals("note")) {
                throw ProblemException.badRequest("unknown property '" + name + "'; known: [note]");
            }
        });
        JsonNode note = root.get("note");
        if (note != null && !note.isNull() && !note.isTextual()) {
            throw ProblemException.badRequest("note must be a string");
        }
        return note == null || note.isNull() ? "" : note.asText();
    }
}
