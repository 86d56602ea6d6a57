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
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import com.fasterxml.jackson.annotation.JsonInclude;

import dev.redrive.deadletter.DeadLetterReader;
import dev.redrive.deadletter.Excerpt;
import io.smallrye.mutiny.Uni;

/** The audit trail of a dead-letter stream: every replay, discard and redrive, with who, when and why. */
@Path("/dlq")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = DeadLetterResource.TAG, description = DeadLetterResource.TAG_DESCRIPTION)
@SecurityRequirement(name = "basic")
@SecurityRequirement(name = "jwt")
@RedisTimeLimit
public class AuditResource {

    @Inject
    DeadLetterReader store;

    @Inject
    ReadPermits permits;

    @Context
    UriInfo uri;

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
    @APIResponse(responseCode = "400", description = "Bad count or cursor")
    @APIResponse(responseCode = "404", description = "Unknown dead-letter stream")
    @APIResponse(responseCode = "503", ref = ProblemResponses.BUSY)
    public Uni<AuditPage> audit(@PathParam("dlq") String dlq, @QueryParam("count") String count,
            @QueryParam("after") String after) {
        Requests.onlyParams(uri, Set.of("count", "after"));
        int n = Requests.pageSize(count);
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
}
