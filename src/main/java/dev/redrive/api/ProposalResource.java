package dev.redrive.api;

import java.util.Set;
import java.util.regex.Pattern;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
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
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import com.fasterxml.jackson.databind.JsonNode;

import dev.redrive.redrive.Proposal;
import dev.redrive.redrive.Proposals;
import io.smallrye.common.annotation.Blocking;

/**
 * Proposed bulk redrives (four eyes): one caller proposes, another dlq-operator approves, which
 * starts the redrive exactly as proposed, or rejects. Nothing moves before the approval.
 */
@Path("/dlq/{dlq}/proposals")
@Produces(MediaType.APPLICATION_JSON)
@Blocking
@Tag(name = "Proposals", description = "A bulk redrive proposed by one caller and approved by another operator")
@SecurityRequirement(name = "basic")
@SecurityRequirement(name = "jwt")
@APIResponse(responseCode = "403", description = "Your roles do not allow this; or (own-proposal) you proposed it",
        content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
@APIResponse(responseCode = "404", description = "Unknown dead-letter stream or proposal")
@APIResponse(responseCode = "400", description = "Malformed body, id, count or cursor")
public class ProposalResource {

    private static final Pattern CURSOR = Pattern.compile("[0-9]{1,9}");
    private static final int MAX_PAGE = 100;

    @Inject
    Proposals proposals;

    @Inject
    Callers callers;

    @Inject
    JsonBodies bodies;

    @Context
    UriInfo uri;

    @POST
    @Consumes(MediaType.WILDCARD)
    @RolesAllowed({ Roles.OPERATOR, Roles.AUTOMATION })
    @Operation(summary = "Propose a bulk redrive",
            description = "Body: a redrive's ({\"filter\": {...}, \"maxPerSecond\": 100, \"canary\": 0, "
                    + "\"maxRefailRate\": 0.5, \"note\": \"why\", \"patch\": {...}}; no dryRun). Nothing moves: the answer is the proposal, "
                    + "state \"proposed\", with until (the stream's newest entry id now: the proposal covers what was "
                    + "parked until it, never what is parked later), matched (the entries the filter selects through until, "
                    + "counted through at most redrive.proposals.count-limit entries; matchedComplete false when it "
                    + "stopped there) and expiresAt (after redrive.proposals.ttl, on Redis' clock). Another dlq-operator "
                    + "approves it. A proposal with a patch keeps it and, while it waits, shows its preview (its first "
                    + "5 entries before and after), so the approver approves what will be written.")
    @APIResponse(responseCode = "201", description = "Proposed; the Location is the proposal")
    @APIResponse(responseCode = "409", description = "A key the proposal is written to holds another type of value "
            + "(wrong-key-type; nothing written)")
    public Response propose(@PathParam("dlq") String dlq, byte[] body) {
        JsonNode root = bodies.read(body);
        if (root == null) {
            throw ProblemException.badRequest("a proposal needs a JSON body; {} proposes a redrive of everything");
        }
        Proposal proposal = proposals.propose(dlq, bodies.redrive(root, false), callers.name());
        return Response.created(Requests.location(dlq, "proposals", proposal.id())).entity(proposal).build();
    }

    @GET
    @RolesAllowed({ Roles.VIEWER, Roles.OPERATOR, Roles.AUTOMATION })
    @Operation(summary = "The stream's proposals, newest first",
            description = "count (default 20, at most 100) per page; next is the cursor of the next page (after=). "
                    + "A proposal whose proposedBy is redrive was made by redrive itself when a queue's circuit closed "
                    + "after an outage: the jobs the outage exhausted, by id (README, \"After an outage\").")
    @APIResponse(responseCode = "200", description = "A page and the cursor of the next")
    public Proposals.ProposalPage list(@PathParam("dlq") String dlq, @QueryParam("count") String count,
            @QueryParam("after") String after) {
        Requests.onlyParams(uri, Set.of("count", "after"));
        if (after != null && !CURSOR.matcher(after).matches()) {
            throw ProblemException.badRequest("after must be the next of a previous page");
        }
        return proposals.list(dlq, Requests.count(count, 20, MAX_PAGE), after);
    }

    @GET
    @Path("{id}")
    @RolesAllowed({ Roles.VIEWER, Roles.OPERATOR, Roles.AUTOMATION })
    @Operation(summary = "One proposal",
            description = "state (proposed, approved, rejected, expired), who decided and when (decidedBy, "
                    + "decidedAt, decisionNote) and, once approved, the redrive task it started (task). While it waits, "
                    + "parkedSince (count, complete, detail): the matching entries parked after it, which it does not "
                    + "include; propose again to include them.")
    @APIResponse(responseCode = "200", description = "The proposal")
    public Proposal get(@PathParam("dlq") String dlq, @PathParam("id") String id) {
        return proposals.get(dlq, id(id));
    }

    @POST
    @Path("{id}/approve")
    @Consumes(MediaType.WILDCARD)
    @RolesAllowed(Roles.OPERATOR)
    @Operation(summary = "Approve a proposal and start its redrive",
            description = "Body: optional {\"note\": \"why\"}. Only a dlq-operator who did not propose it. Starts the "
                    + "redrive exactly as proposed (canary first; only entries up to its until) and answers with the proposal, its task set; poll "
                    + "the Location (the task). Decided once: of two approvers at once one starts the task, the "
                    + "other gets 409.")
    @APIResponse(responseCode = "202", description = "Approved; the redrive started")
    @APIResponse(responseCode = "409", description = "Already approved, rejected or expired (proposal-decided), or "
            + "another redrive of the stream is unfinished (redrive-running; the proposal stays open), or a key the "
            + "approval writes holds another type of value (wrong-key-type; nothing written)")
    public Response approve(@PathParam("dlq") String dlq, @PathParam("id") String id, byte[] body) {
        String note = bodies.note(body);
        Proposal approved = proposals.approve(dlq, id(id), callers.name(), note);
        return Response.accepted(approved).location(Requests.location(dlq, "redrives", approved.task())).build();
    }

    @POST
    @Path("{id}/reject")
    @Consumes(MediaType.WILDCARD)
    @RolesAllowed(Roles.OPERATOR)
    @Operation(summary = "Reject a proposal",
            description = "Body: optional {\"note\": \"why\"}. Only a dlq-operator who did not propose it. Nothing moves.")
    @APIResponse(responseCode = "200", description = "Rejected")
    @APIResponse(responseCode = "409", description = "Already approved, rejected or expired (proposal-decided), or "
            + "a key the rejection writes holds another type of value (wrong-key-type; nothing written)")
    public Proposal reject(@PathParam("dlq") String dlq, @PathParam("id") String id, byte[] body) {
        String note = bodies.note(body);
        return proposals.reject(dlq, id(id), callers.name(), note);
    }

    static String id(String id) {
        return Requests.uuid(id, "proposal id (a UUID from POST .../proposals)");
    }
}
