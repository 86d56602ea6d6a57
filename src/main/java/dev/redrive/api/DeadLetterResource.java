package dev.redrive.api;

import java.util.List;
import java.util.Map;
import java.util.Set;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.UriInfo;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import com.fasterxml.jackson.annotation.JsonInclude;

import dev.redrive.config.RedriveConfig;
import dev.redrive.deadletter.DeadLetterReader;
import dev.redrive.deadletter.DeadLetterSummary;
import dev.redrive.deadletter.EntryFilter;
import dev.redrive.deadletter.Excerpt;
import dev.redrive.deadletter.Reveals;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpServerResponse;

/**
 * Parked jobs for people to look at: the summary of every dead-letter stream, pages of entries,
 * one entry, a value whole, and the audit trail, masked fields masked ({@link RedactedFields}).
 * Replay and discard are {@link DeadLetterActionResource}'s; both share the path /dlq and its
 * documented errors.
 */
@Path("/dlq")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = DeadLetterResource.TAG, description = DeadLetterResource.TAG_DESCRIPTION)
@SecurityRequirement(name = "basic")
@SecurityRequirement(name = "jwt")
@RedisTimeLimit
public class DeadLetterResource {

    /** The OpenAPI tag of every /dlq operation but the redrives', whichever class serves it. */
    static final String TAG = "Dead letters";
    static final String TAG_DESCRIPTION = "Parked jobs: inspect, replay, discard, audit";

    @Inject
    DeadLetterReader store;

    @Inject
    RedriveConfig config;

    @Inject
    ReadPermits permits;

    @Inject
    RawValues rawValues;

    @Inject
    RedactedFields redacted;

    @Inject
    Reveals revealed;

    @Inject
    Callers callers;

    @Context
    UriInfo uri;

    @GET
    @RolesAllowed({ Roles.VIEWER, Roles.OPERATOR, Roles.AUTOMATION })
    @Operation(summary = "Every dead-letter stream redrive knows",
            description = "Depth, oldest and newest dead-at, and counts by origin stream, failure kind and cause "
                    + "(fingerprint: error type plus the reason with ids, numbers and quotes normalised away). "
                    + "parkedLastFiveMinutes for the stream; parkedPerHour for the stream and for each cause (from: the start "
                    + "of the first hour, UTC; counts: parks by dead-at in each of the last 24 hours, oldest first, gone since "
                    + "or not). "
                    + "Built from counters kept beside each stream: the cost does not grow with its depth.")
    @APIResponse(responseCode = "200", description = "One summary per dead-letter stream")
    public Uni<List<DeadLetterSummary>> list() {
        return store.summaries();
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
    @APIResponse(responseCode = "400", description = "Bad count, cursor, order, filter value or unknown parameter")
    @APIResponse(responseCode = "404", description = "Unknown dead-letter stream")
    @APIResponse(responseCode = "503", ref = ProblemResponses.BUSY)
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
            @Parameter(description = "Only these dead-letter ids, comma-separated (not empty)") @QueryParam("ids") String ids,
            @Parameter(description = "Only records whose reason or error type contains this text (case-insensitive, "
                    + "up to 200 characters)") @QueryParam("text") String text) {
        Requests.onlyParams(uri, Set.of("count", "after", "order", "origin", "job", "failure", "fingerprint", "deadFrom",
                "deadTo", "ids", "text"));
        int n = Requests.pageSize(count);
        String cursor = Requests.cursor(after);
        boolean newestFirst = order == null || order.equals("newest");
        if (order != null && !order.equals("newest") && !order.equals("oldest")) {
            throw ProblemException.badRequest("order must be newest or oldest (got '" + order + "')");
        }
        Filters.refuseEmptyParams(uri, "origin", "job", "failure", "fingerprint", "deadFrom", "deadTo", "ids", "text");
        EntryFilter filter = Filters.of(origin, job, failure, fingerprint, deadFrom, deadTo, Filters.idList(ids), text);
        int repeat = config.replay().repeatOffenderAfter();
        return permits.run(() -> store.page(dlq, filter, newestFirst, n, cursor).map(page -> new EntryPage(
                page.items().stream().map(e -> EntryView.of(e, repeat, null)).toList(), page.next(), page.examined())));
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
                    + "fieldsLeftOut. " + MASKING)
    @APIResponse(responseCode = "200", description = "The record")
    @APIResponse(responseCode = "400", description = "Malformed id, or reveal other than true or false")
    @APIResponse(responseCode = "403", description = "Your roles do not allow this, or reveal=true by a caller who is no "
            + "dlq-operator", content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "404", description = "Unknown stream or entry")
    @APIResponse(responseCode = "503", ref = ProblemResponses.BUSY)
    public Uni<EntryView> entry(@PathParam("dlq") String dlq, @PathParam("id") String id,
            @Parameter(description = REVEAL) @QueryParam("reveal") String reveal) {
        Requests.onlyParams(uri, Set.of("reveal"));
        Requests.entryId(id);
        boolean clear = reveals(reveal);
        int repeat = config.replay().repeatOffenderAfter();
        return permits.run(() -> store.excerpt(dlq, id)).flatMap(found -> {
            Excerpt entry = found.orElseThrow(() -> Filters.gone(dlq, id));
            Map<String, Excerpt.Value> snapshot = entry.snapshot();
            EntryView view = EntryView.of(entry, repeat, clear ? ValueJson.of(snapshot) : redacted.snapshot(snapshot));
            List<String> shown = clear ? redacted.among(snapshot.keySet()) : List.of();
            // audited before the values are sent: no reveal is shown unaudited
            return shown.isEmpty() ? Uni.createFrom().item(view)
                    : revealed.record(dlq, id, shown, callers.name()).map(audited -> view);
        });
    }

    /** What the masking reads and their reveal say, once for the OpenAPI description. */
    static final String MASKING = "Fields named in redrive.console.redact-fields are masked for every caller (shown as "
            + "\"(masked: ...)\") unless a dlq-operator asks with reveal=true: then they are shown in clear and the look is "
            + "audited (action reveal, with who and which fields) before the answer is sent.";
    static final String REVEAL = "true: show the masked fields in clear (dlq-operator only; audited as a reveal). "
            + "Defaults to false.";

    /** Whether the caller asks to see masked fields in clear, which only an operator may (fail closed). */
    private boolean reveals(String reveal) {
        if (reveal == null || reveal.equals("false")) {
            return false;
        }
        if (!reveal.equals("true")) {
            throw ProblemException.badRequest("reveal must be true or false (got '" + reveal + "')");
        }
        if (!callers.has(Roles.OPERATOR)) {
            throw new ProblemException(403, "forbidden", "Forbidden", "only a dlq-operator may reveal masked fields "
                    + "(redrive.console.redact-fields), and the look is audited");
        }
        return true;
    }

    @GET
    @Path("{dlq}/entries/{id}/fields/{name}")
    @Produces(MediaType.APPLICATION_OCTET_STREAM)
    @RolesAllowed({ Roles.VIEWER, Roles.OPERATOR, Roles.AUTOMATION })
    @Operation(summary = "One field of a parked job's snapshot, whole, as bytes",
            description = "The value exactly as the producer wrote it (its size is the view's `size`). It is sent "
                    + "chunked, in slices of redrive.reads.entry-bytes read from Redis one after the other, so a "
                    + "value of any size costs the service one slice at a time; a download cut short ends without "
                    + "the closing chunk. A client that takes no slice for redrive.reads.stall-timeout (30s) is cut "
                    + "off, so it can't keep its read slot. Reading is not audited, like every other read, but for "
                    + "a masked field (redrive.console.redact-fields): only a dlq-operator gets it, with reveal=true, "
                    + "and that download is audited as a reveal before its first byte is sent; anyone else gets 403.")
    @APIResponse(responseCode = "200", description = "The value",
            content = @Content(mediaType = MediaType.APPLICATION_OCTET_STREAM))
    @APIResponse(responseCode = "400", description = "Malformed id, or reveal other than true or false")
    @APIResponse(responseCode = "403", description = "Your roles do not allow this, or (masked-field) a masked field "
            + "without reveal=true, or reveal=true by a caller who is no dlq-operator",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "404", description = "Unknown stream or entry, or no such field in the snapshot")
    @APIResponse(responseCode = "503", ref = ProblemResponses.BUSY)
    public Multi<byte[]> value(@PathParam("dlq") String dlq, @PathParam("id") String id,
            @Parameter(description = "The field's name, as in the entry's `fields`") @PathParam("name") String name,
            @Parameter(description = REVEAL) @QueryParam("reveal") String reveal,
            @Context HttpServerResponse response) {
        // No ranges or offsets: a parameter this endpoint ignored would send the whole value unasked.
        Requests.onlyParams(uri, Set.of("reveal"));
        Requests.entryId(id);
        boolean clear = reveals(reveal);
        if (!redacted.masks(name)) {
            return rawValues.stream(dlq, id, name, response, () -> Uni.createFrom().voidItem());
        }
        if (!clear) {
            throw new ProblemException(403, "masked-field", "Masked field", "field " + name + " is masked "
                    + "(redrive.console.redact-fields): a dlq-operator downloads it with reveal=true, audited");
        }
        String actor = callers.name();
        return rawValues.stream(dlq, id, name, response, () -> revealed.record(dlq, id, List.of(name), actor).replaceWithVoid());
    }

    @GET
    @Path("{dlq}/audit")
    @RolesAllowed({ Roles.VIEWER, Roles.OPERATOR, Roles.AUTOMATION })
    @Operation(summary = "The audit trail, newest first",
            description = "Every replay, discard and redrive with who, when and why. Discard records keep the full "
                    + "record and snapshot as record:<field>. A redrive's moves are audited per step of up to 200 "
                    + "entries (action redrive-moves): its moves field has one line per entry, "
                    + "'<dlq-id> <new-id> <origin-id> <origin-stream>'. Values over redrive.reads.value-bytes are "
                    + "shown cut, as in an entry view. A discarded snapshot's masked fields (redrive.console.redact-fields) "
                    + "are masked here for every caller, and a packed one (record:snapshot-packed) whole while any field is.")
    @APIResponse(responseCode = "200", description = "A page and the cursor of the next")
    @APIResponse(responseCode = "400", description = "Bad count or cursor")
    @APIResponse(responseCode = "404", description = "Unknown dead-letter stream")
    @APIResponse(responseCode = "503", ref = ProblemResponses.BUSY)
    public Uni<AuditPage> audit(@PathParam("dlq") String dlq, @QueryParam("count") String count,
            @QueryParam("after") String after) {
        Requests.onlyParams(uri, Set.of("count", "after"));
        int n = Requests.pageSize(count);
        String cursor = Requests.cursor(after);
        return permits.run(() -> store.audit(dlq, n, cursor).map(page -> new AuditPage(
                page.items().stream().map(e -> AuditRecord.of(e, redacted)).toList(), page.next())));
    }

    /**
     * One audit record: its id and its fields (action, actor, at, note, dlq-id, ...), values cut
     * like an entry's (a discard's record:f:<name> fields keep the whole payload in Redis).
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record AuditRecord(String id, Map<String, Object> fields, Integer fieldsLeftOut) {

        static AuditRecord of(Excerpt e, RedactedFields redacted) {
            return new AuditRecord(e.id(), redacted.auditRecord(e.fields()), e.fieldsLeftOut() == 0 ? null : e.fieldsLeftOut());
        }
    }

    /** A page of the audit trail. */
    public record AuditPage(List<AuditRecord> items, String next) {
    }
}
