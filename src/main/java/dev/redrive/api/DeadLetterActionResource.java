package dev.redrive.api;

import java.util.LinkedHashMap;
import java.util.Map;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import dev.redrive.deadletter.Replays;
import io.smallrye.mutiny.Uni;

/** Parked jobs sent back (replay) or dropped on purpose (discard), each with an audit record. */
@Path("/dlq")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = DeadLetterResource.TAG, description = DeadLetterResource.TAG_DESCRIPTION)
@SecurityRequirement(name = "basic")
@SecurityRequirement(name = "jwt")
@APIResponse(responseCode = "503", description = "Redis is down, full or slower than redrive.redis-timeout "
        + "(redis-unavailable); or, with redrive.redis.wait-replicas set, the replay or discard happened on the primary "
        + "but too few replicas confirmed it in time (not-replicated: check before repeating it); see Retry-After",
        content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
@RedisTimeLimit
public class DeadLetterActionResource {

    @Inject
    Replays replays;

    @Inject
    Callers callers;

    @Inject
    JsonBodies bodies;

    @POST
    @Path("{dlq}/entries/{id}/replay")
    @Consumes(MediaType.WILDCARD)
    @RolesAllowed({ Roles.OPERATOR, Roles.AUTOMATION })
    @Operation(summary = "Send a parked job back to its origin stream",
            description = "One atomic script adds the snapshot (patched where the body asks) to the origin stream as a "
                    + "new entry, so it gets a fresh attempt budget; marks it replay-of=<dlq>/<id>, keeps its "
                    + "idempotency-key (the original <stream>/<id> when it had none), counts redrive-replays, deletes "
                    + "the dead letter and writes the audit record. A second replay of the same entry answers 404; "
                    + "a retried request with the same Idempotency-Key header gets the first answer (200). "
                    + "The origin and dead-letter stream must share a Redis Cluster hash slot (the default "
                    + "{stream}:dlq does): otherwise the replay is refused with 409 cross-slot rather than done in "
                    + "two non-atomic steps. dlq-automation callers may replay only when "
                    + "redrive.replay.automation-enabled (REPLAY_AUTOMATION_ENABLED) is true.")
    @APIResponse(responseCode = "201", description = "Replayed: the new entry's id and stream")
    @APIResponse(responseCode = "200", description = "The answer to an earlier request with the same Idempotency-Key")
    @APIResponse(responseCode = "400", description = "Malformed id or body")
    @APIResponse(responseCode = "404", description = "Unknown stream, or no such entry (never parked, or already replayed or discarded)")
    @APIResponse(responseCode = "409", description = "Origin in another hash slot, no snapshot to send, or a key "
            + "the replay would write holds another type of value (nothing changed)")
    @APIResponse(responseCode = "413", description = "Patch over redrive.replay.max-body-bytes")
    @APIResponse(responseCode = "422", description = "Origin stream not allowed, or Idempotency-Key used for another entry")
    public Uni<Response> replay(@PathParam("dlq") String dlq, @PathParam("id") String id,
            @Parameter(description = "Makes a retried request safe: the same key gets the first answer back. 1 to 200 "
                    + "characters, compared exactly; empty, blank or given twice is 400 /problems/ambiguous-request")
            @HeaderParam(AmbiguousRequests.IDEMPOTENCY_KEY) String idempotencyKey,
            @Schema(implementation = ReplayRequestDoc.class) byte[] body) {
        Requests.entryId(id);
        callers.requireMayReplay();
        ReplayBody parsed = bodies.replay(body);
        Replays.Request request = new Replays.Request(dlq, id, parsed.patch(), parsed.note(), callers.name(),
                idempotencyKey);
        return replays.replay(request).map(done -> {
            Map<String, Object> answer = new LinkedHashMap<>();
            answer.put("id", done.newId());
            answer.put("stream", done.stream());
            answer.put("replayOf", dlq + "/" + id);
            if (done.repeated()) {
                return Response.ok(answer).build();
            }
            return Response.created(Requests.location(dlq, "entries", id)).entity(answer).build();
        });
    }

    @DELETE
    @Path("{dlq}/entries/{id}")
    @RolesAllowed(Roles.OPERATOR)
    @Operation(summary = "Discard a parked job, with a reason",
            description = "Deletes the dead letter in one step with an audit record that keeps the whole record and "
                    + "snapshot (as record:<field>), who discarded it and why: a discard is never a silent drop.")
    @APIResponse(responseCode = "200", description = "Discarded; the audit entry id")
    @APIResponse(responseCode = "400", description = "Malformed id or no reason")
    @APIResponse(responseCode = "404", description = "Unknown stream or entry")
    @APIResponse(responseCode = "409", description = "A key the discard would write holds another type of value "
            + "(nothing changed)")
    public Uni<Map<String, String>> discard(@PathParam("dlq") String dlq, @PathParam("id") String id,
            @Parameter(description = "Why (required; kept in the audit trail without the white space around it, "
                    + "1 to 2000 characters)") @QueryParam("reason") String reason) {
        Requests.entryId(id);
        return replays.discard(dlq, id, reason, callers.name()).map(auditId -> Map.of("audit", auditId));
    }

    /** The replay body, for the OpenAPI document only. */
    @Schema(name = "ReplayRequest")
    public record ReplayRequestDoc(
            @Schema(description = "Fields to patch or add: a string, or {\"base64\": \"...\"} for bytes")
            Map<String, Object> fields,
            @Schema(description = "Why (kept in the audit trail without the white space around it)") String note) {
    }
}
