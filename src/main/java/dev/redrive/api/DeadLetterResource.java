package dev.redrive.api;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.redrive.config.RedriveConfig;
import dev.redrive.deadletter.DeadLetterStore;
import dev.redrive.deadletter.DeadLetterSummary;
import dev.redrive.deadletter.EntryFilter;
import dev.redrive.deadletter.Replays;
import dev.redrive.deadletter.Excerpt;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

/** Parked jobs for people: see them, send them back, or discard them with a reason. */
@Path("/dlq")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Dead letters", description = "Parked jobs: inspect, replay, discard, audit")
@SecurityRequirement(name = "basic")
@SecurityRequirement(name = "jwt")
@APIResponse(responseCode = "401", description = "No or bad credentials",
        content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
@APIResponse(responseCode = "403", description = "Your roles do not allow this",
        content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
@APIResponse(responseCode = "503", description = "Redis is down, full or slower than redrive.redis-timeout; see Retry-After",
        content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
@RedisTimeLimit
public class DeadLetterResource {

    static final int DEFAULT_PAGE = 50;
    static final int MAX_PAGE = 500;

    @Inject
    DeadLetterStore store;

    @Inject
    Replays replays;

    @Inject
    RedriveConfig config;

    @Inject
    SecurityIdentity identity;

    @Inject
    ObjectMapper mapper;

    @Inject
    ReadPermits permits;

    @Inject
    RawValues rawValues;

    @Context
    UriInfo uri;

    @GET
    @RolesAllowed({ Roles.VIEWER, Roles.OPERATOR, Roles.AUTOMATION })
    @Operation(summary = "Every dead-letter stream redrive knows",
            description = "Depth, oldest and newest dead-at, and counts by origin stream, failure kind and cause "
                    + "(fingerprint: error type plus the reason with ids, numbers and quotes normalised away). "
                    + "Built from counters kept beside each stream: the cost does not grow with its depth.")
    @APIResponse(responseCode = "200", description = "One summary per dead-letter stream")
    public Uni<List<DeadLetterSummary>> list() {
        List<Uni<DeadLetterSummary>> summaries = store.knownStreams().stream().map(store::summary).toList();
        if (summaries.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return Uni.join().all(summaries).andFailFast();
    }

    @GET
    @Path("{dlq}/entries")
    @RolesAllowed({ Roles.VIEWER, Roles.OPERATOR, Roles.AUTOMATION })
    @Operation(summary = "A page of dead letters",
            description = "Newest or oldest first, filtered (filters combine). Each request examines at most "
                    + "redrive.replay.scan-limit entries: a page may hold fewer items than asked while `next` is set; "
                    + "ask again with after=<next>. `next` is null at the end of the stream. Snapshots are left out; "
                    + "record values over redrive.reads.value-bytes are cut (named in `truncated`), and a page ends "
                    + "early, with `next` set, once it holds redrive.reads.entry-bytes.")
    @APIResponse(responseCode = "200", description = "A page and the cursor of the next")
    @APIResponse(responseCode = "400", description = "Bad count, cursor, order, filter value or unknown parameter",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "404", description = "Unknown dead-letter stream",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "503", description = ReadPermits.BUSY,
            headers = @Header(name = "Retry-After", description = "Seconds to wait", schema = @Schema(type = SchemaType.INTEGER)),
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public Uni<EntryPage> entries(@PathParam("dlq") String dlq,
            @Parameter(description = "Items per page, 1 to 500. Defaults to 50.") @QueryParam("count") String count,
            @Parameter(description = "The `next` cursor of the previous page") @QueryParam("after") String after,
            @Parameter(description = "newest (default) or oldest") @QueryParam("order") String order,
            @Parameter(description = "Only jobs from this origin stream") @QueryParam("origin") String origin,
            @Parameter(description = "Only jobs with this job name") @QueryParam("job") String job,
            @Parameter(description = "Only this failure kind: terminal, exhausted, missing, max-receive") @QueryParam("failure") String failure,
            @Parameter(description = "Only this cause (12 hex digits, from GET /dlq)") @QueryParam("fingerprint") String fingerprint,
            @Parameter(description = "Only jobs parked at or after this instant (ISO-8601, years 0000 to 9999)") @QueryParam("deadFrom") String deadFrom,
            @Parameter(description = "Only jobs parked before this instant (ISO-8601, years 0000 to 9999)") @QueryParam("deadTo") String deadTo,
            @Parameter(description = "Only these dead-letter ids, comma-separated (not empty)") @QueryParam("ids") String ids) {
        Requests.onlyParams(uri, Set.of("count", "after", "order", "origin", "job", "failure", "fingerprint", "deadFrom",
                "deadTo", "ids"));
        store.requireKnown(dlq);
        int n = Requests.count(count, DEFAULT_PAGE, MAX_PAGE);
        String cursor = Requests.cursor(after);
        boolean newestFirst = order == null || order.equals("newest");
        if (order != null && !order.equals("newest") && !order.equals("oldest")) {
            throw ProblemException.badRequest("order must be newest or oldest (got '" + order + "')");
        }
        Filters.refuseEmptyParams(uri, "origin", "job", "failure", "fingerprint", "deadFrom", "deadTo", "ids");
        EntryFilter filter = Filters.of(origin, job, failure, fingerprint, deadFrom, deadTo, Filters.idList(ids));
        int repeat = config.replay().repeatOffenderAfter();
        return permits.run(() -> store.page(dlq, filter, newestFirst, n, cursor).map(page -> new EntryPage(
                page.items().stream().map(e -> EntryView.of(e, repeat, false)).toList(), page.next(), page.examined())));
    }

    /** A page of dead letters. */
    public record EntryPage(List<EntryView> items, String next, int examined) {
    }

    @GET
    @Path("{dlq}/entries/{id}")
    @RolesAllowed({ Roles.VIEWER, Roles.OPERATOR, Roles.AUTOMATION })
    @Operation(summary = "One dead letter with its snapshot",
            description = "The record and the job's fields as the producer wrote them; values that are not UTF-8 "
                    + "come as {\"base64\": \"...\"}. A value over redrive.reads.value-bytes (64 KiB) is cut in "
                    + "Redis and comes as {\"truncated\": true, \"size\": <its full bytes>, \"text\": \"<first bytes>\"} "
                    + "(\"base64\" instead of \"text\" when they are not UTF-8); fetch it whole from "
                    + "/fields/<name>. Fields past redrive.reads.entry-bytes (1 MiB) are left out and counted in "
                    + "fieldsLeftOut.")
    @APIResponse(responseCode = "200", description = "The record")
    @APIResponse(responseCode = "400", description = "Malformed id",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "404", description = "Unknown stream or entry",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "503", description = ReadPermits.BUSY,
            headers = @Header(name = "Retry-After", description = "Seconds to wait", schema = @Schema(type = SchemaType.INTEGER)),
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public Uni<EntryView> entry(@PathParam("dlq") String dlq, @PathParam("id") String id) {
        Requests.onlyParams(uri, Set.of());
        store.requireKnown(dlq);
        Requests.entryId(id);
        int repeat = config.replay().repeatOffenderAfter();
        return permits.run(() -> store.excerpt(dlq, id)
                .map(found -> EntryView.of(found.orElseThrow(() -> Filters.gone(dlq, id)), repeat, true)));
    }

    @GET
    @Path("{dlq}/entries/{id}/fields/{name}")
    @Produces(MediaType.APPLICATION_OCTET_STREAM)
    @RolesAllowed({ Roles.VIEWER, Roles.OPERATOR, Roles.AUTOMATION })
    @Operation(summary = "One field of a parked job's snapshot, whole, as bytes",
            description = "The value exactly as the producer wrote it (its size is the view's `size`). It is sent "
                    + "chunked, in slices of redrive.reads.entry-bytes read from Redis one after the other, so a "
                    + "value of any size costs the service one slice at a time; a download cut short ends without "
                    + "the closing chunk. Reading is not audited, like every other read.")
    @APIResponse(responseCode = "200", description = "The value",
            content = @Content(mediaType = MediaType.APPLICATION_OCTET_STREAM))
    @APIResponse(responseCode = "400", description = "Malformed id",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "404", description = "Unknown stream or entry, or no such field in the snapshot",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "503", description = ReadPermits.BUSY,
            headers = @Header(name = "Retry-After", description = "Seconds to wait", schema = @Schema(type = SchemaType.INTEGER)),
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public Multi<byte[]> value(@PathParam("dlq") String dlq, @PathParam("id") String id,
            @Parameter(description = "The field's name, as in the entry's `fields`") @PathParam("name") String name) {
        // No ranges or offsets: a parameter this endpoint ignored would send the whole value unasked.
        Requests.onlyParams(uri, Set.of());
        store.requireKnown(dlq);
        Requests.entryId(id);
        return rawValues.stream(dlq, id, name);
    }

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
    @APIResponse(responseCode = "400", description = "Malformed id or body",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "404", description = "Unknown stream, or no such entry (never parked, or already replayed or discarded)",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "409", description = "Origin in another hash slot, no snapshot to send, or a key "
            + "the replay would write holds another type of value (nothing changed)",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "413", description = "Patch over redrive.replay.max-body-bytes",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "422", description = "Origin stream not allowed, or Idempotency-Key used for another entry",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public Uni<Response> replay(@PathParam("dlq") String dlq, @PathParam("id") String id,
            @Parameter(description = "Makes a retried request safe: the same key gets the first answer back")
            @HeaderParam("Idempotency-Key") String idempotencyKey,
            @Schema(implementation = ReplayRequestDoc.class) byte[] body) {
        store.requireKnown(dlq);
        Requests.entryId(id);
        Callers.requireMayReplay(identity, config);
        int max = config.replay().maxBodyBytes();
        ReplayBody parsed = ReplayBody.parse(Requests.json(mapper, body, max * 2), max);
        if (idempotencyKey != null && (idempotencyKey.isBlank() || idempotencyKey.length() > 200)) {
            throw ProblemException.badRequest("Idempotency-Key must be 1 to 200 characters");
        }
        Replays.Request request = new Replays.Request(dlq, id, parsed.patch(), parsed.note(), Callers.name(identity),
                idempotencyKey);
        return replays.replay(request).map(done -> {
            Map<String, Object> answer = new LinkedHashMap<>();
            answer.put("id", done.newId());
            answer.put("stream", done.stream());
            answer.put("replayOf", dlq + "/" + id);
            if (done.repeated()) {
                return Response.ok(answer).build();
            }
            return Response.created(URI.create("/dlq/" + URLEncoder.encode(dlq, StandardCharsets.UTF_8) + "/entries/"
                    + id)).entity(answer).build();
        });
    }

    @DELETE
    @Path("{dlq}/entries/{id}")
    @RolesAllowed(Roles.OPERATOR)
    @Operation(summary = "Discard a parked job, with a reason",
            description = "Deletes the dead letter in one step with an audit record that keeps the whole record and "
                    + "snapshot (as record:<field>), who discarded it and why: a discard is never a silent drop.")
    @APIResponse(responseCode = "200", description = "Discarded; the audit entry id")
    @APIResponse(responseCode = "400", description = "Malformed id or no reason",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "404", description = "Unknown stream or entry",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "409", description = "A key the discard would write holds another type of value "
            + "(nothing changed)",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public Uni<Map<String, String>> discard(@PathParam("dlq") String dlq, @PathParam("id") String id,
            @Parameter(description = "Why (required; kept in the audit trail)") @QueryParam("reason") String reason) {
        store.requireKnown(dlq);
        Requests.entryId(id);
        if (reason == null || reason.isBlank()) {
            throw ProblemException.badRequest("a discard needs ?reason=... (it is kept in the audit trail)");
        }
        if (reason.length() > 2000) {
            throw ProblemException.badRequest("reason is limited to 2000 characters");
        }
        return replays.discard(dlq, id, reason, Callers.name(identity)).map(auditId -> Map.of("audit", auditId));
    }

    @GET
    @Path("{dlq}/audit")
    @RolesAllowed({ Roles.VIEWER, Roles.OPERATOR, Roles.AUTOMATION })
    @Operation(summary = "The audit trail, newest first",
            description = "Every replay, discard and redrive with who, when and why. Discard records keep the full "
                    + "record and snapshot as record:<field>. A redrive's moves are audited per step of up to 200 "
                    + "entries (action redrive-moves): its moves field has one line per entry, "
                    + "'<dlq-id> <new-id> <origin-id> <origin-stream>'. Values over redrive.reads.value-bytes are "
                    + "shown cut, as in an entry view.")
    @APIResponse(responseCode = "200", description = "A page and the cursor of the next")
    @APIResponse(responseCode = "400", description = "Bad count or cursor",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "404", description = "Unknown dead-letter stream",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "503", description = ReadPermits.BUSY,
            headers = @Header(name = "Retry-After", description = "Seconds to wait", schema = @Schema(type = SchemaType.INTEGER)),
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public Uni<AuditPage> audit(@PathParam("dlq") String dlq, @QueryParam("count") String count,
            @QueryParam("after") String after) {
        Requests.onlyParams(uri, Set.of("count", "after"));
        store.requireKnown(dlq);
        int n = Requests.count(count, DEFAULT_PAGE, MAX_PAGE);
        String cursor = Requests.cursor(after);
        return permits.run(() -> store.audit(dlq, n, cursor).map(page -> new AuditPage(
                page.items().stream().map(AuditRecord::of).toList(), page.next())));
    }

    /**
     * One audit record: its id and its fields (action, actor, at, note, dlq-id, ...), values cut
     * like an entry's (a discard's record:f:<name> fields keep the whole payload in Redis).
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record AuditRecord(String id, Map<String, Object> fields, Integer fieldsLeftOut) {

        static AuditRecord of(Excerpt e) {
            return new AuditRecord(e.id(), ValueJson.of(e.fields()), e.fieldsLeftOut() == 0 ? null : e.fieldsLeftOut());
        }
    }

    /** A page of the audit trail. */
    public record AuditPage(List<AuditRecord> items, String next) {
    }

    /** The replay body, for the OpenAPI document only. */
    @Schema(name = "ReplayRequest")
    public record ReplayRequestDoc(
            @Schema(description = "Fields to patch or add: a string, or {\"base64\": \"...\"} for bytes")
            Map<String, Object> fields,
            @Schema(description = "Why (kept in the audit trail)") String note) {
    }
}
