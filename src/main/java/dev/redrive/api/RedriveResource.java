package dev.redrive.api;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.redrive.config.RedriveConfig;
import dev.redrive.deadletter.DeadLetterReader;
import dev.redrive.deadletter.EntryFilter;
import dev.redrive.redrive.RedriveSpec;
import dev.redrive.redrive.RedriveStatus;
import dev.redrive.redrive.RedriveTasks;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.common.annotation.Blocking;

/** Bulk replays: filtered, paced, with a canary that stops the task when the jobs keep failing. */
@Path("/dlq/{dlq}/redrives")
@Produces(MediaType.APPLICATION_JSON)
@Blocking
@Tag(name = "Redrives", description = "Bulk replay of parked jobs, like SQS' message move task but filtered")
@SecurityRequirement(name = "basic")
@SecurityRequirement(name = "jwt")
@APIResponse(responseCode = "401", description = "No or bad credentials",
        content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
@APIResponse(responseCode = "403", description = "Your roles do not allow this",
        content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
@APIResponse(responseCode = "404", description = "Unknown dead-letter stream or redrive",
        content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
@APIResponse(responseCode = "503", description = "Redis is down, full or slower than redrive.redis-timeout; see Retry-After",
        content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
public class RedriveResource {

    private static final Pattern TASK_ID = Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
    private static final Set<String> KNOWN = Set.of("filter", "maxPerSecond", "dryRun", "canary", "maxRefailRate", "note");
    private static final Set<String> FILTER = Set.of("origin", "job", "failure", "fingerprint", "deadFrom", "deadTo", "ids",
            "text");

    @Inject
    RedriveTasks redrives;

    @Inject
    DeadLetterReader store;

    @Inject
    RedriveConfig config;

    @Inject
    SecurityIdentity identity;

    @Inject
    ObjectMapper mapper;

    @POST
    @Consumes(MediaType.WILDCARD)
    @RolesAllowed(Roles.OPERATOR)
    @Operation(summary = "Start a bulk redrive",
            description = "Body: {\"filter\": {origin, job, failure, fingerprint, deadFrom, deadTo, ids}, \"maxPerSecond\": "
                    + "100, \"dryRun\": false, \"canary\": 0, \"maxRefailRate\": 0.5, \"note\": \"why\"}. Moves the entries "
                    + "that match and were parked before the request, oldest first, each with the atomic replay "
                    + "(so no entry moves twice, even across a restart, which resumes the task from its cursor). With "
                    + "a canary, moves the first `canary` entries, waits until their jobs are done or parked again, and "
                    + "aborts by itself when more than maxRefailRate of them came back. dryRun only counts. "
                    + "maxPerSecond defaults to 100; 0 means no limit. Filters fail closed: an empty ids list or name, "
                    + "or a deadFrom/deadTo outside years 0000-9999, is a 400; so is an unknown field, a field named "
                    + "twice or anything after the JSON object. One redrive of a stream runs at a time: while one "
                    + "is counting, in its canary or running, another is refused with 409 naming it; a dry run moves "
                    + "nothing and may run beside it.")
    @APIResponse(responseCode = "202", description = "Started; poll the Location")
    @APIResponse(responseCode = "409", description = "Another redrive of this dead-letter stream is unfinished "
            + "(redrive-running; the detail names it): wait for it or cancel it",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "400", description = "Malformed body or filter",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public Response start(@PathParam("dlq") String dlq, byte[] body) {
        store.requireKnown(dlq);
        JsonNode root = Requests.json(mapper, body, config.replay().maxBodyBytes());
        RedriveSpec spec = spec(root);
        RedriveStatus status = redrives.start(dlq, spec, Callers.name(identity));
        return Response.accepted(status).location(URI.create("/dlq/" + URLEncoder.encode(dlq, StandardCharsets.UTF_8)
                + "/redrives/" + status.id())).build();
    }

    @GET
    @Path("{task}")
    @RolesAllowed({ Roles.VIEWER, Roles.OPERATOR, Roles.AUTOMATION })
    @Operation(summary = "Progress of a redrive",
            description = "state (counting, canary, running, completed, cancelled, aborted), matched, moved, remaining, "
                    + "failed (moved jobs that were parked again), skipped (could not be moved), detail.")
    @APIResponse(responseCode = "200", description = "The task")
    public RedriveStatus status(@PathParam("dlq") String dlq, @PathParam("task") String task) {
        store.requireKnown(dlq);
        return redrives.status(dlq, taskId(task));
    }

    @DELETE
    @Path("{task}")
    @RolesAllowed(Roles.OPERATOR)
    @Operation(summary = "Cancel a redrive", description = "Stops it wherever it runs; what moved stays moved.")
    @APIResponse(responseCode = "200", description = "Cancelled")
    @APIResponse(responseCode = "409", description = "Already finished",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public RedriveStatus cancel(@PathParam("dlq") String dlq, @PathParam("task") String task) {
        store.requireKnown(dlq);
        return redrives.cancel(dlq, taskId(task), Callers.name(identity));
    }

    private static String taskId(String task) {
        if (!TASK_ID.matcher(task).matches()) {
            throw ProblemException.badRequest("'" + task + "' is not a redrive id (a UUID from POST .../redrives)");
        }
        return task;
    }

    private static RedriveSpec spec(JsonNode root) {
        if (root == null) {
            throw ProblemException.badRequest("a redrive needs a JSON body; {\"dryRun\": true} counts everything");
        }
        if (!root.isObject()) {
            throw ProblemException.badRequest("the body must be a JSON object");
        }
        root.fieldNames().forEachRemaining(name -> {
            if (!KNOWN.contains(name)) {
                throw ProblemException.badRequest("unknown property '" + name + "'; known: " + KNOWN);
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
                text(root, "note"));
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
