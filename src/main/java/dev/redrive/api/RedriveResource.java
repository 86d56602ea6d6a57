package dev.redrive.api;

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
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import dev.redrive.redrive.RedriveSpec;
import dev.redrive.redrive.RedriveStatus;
import dev.redrive.redrive.RedriveTasks;
import io.smallrye.common.annotation.Blocking;

/** Bulk replays: filtered, paced, with a canary that stops the task when the jobs keep failing. */
@Path("/dlq/{dlq}/redrives")
@Produces(MediaType.APPLICATION_JSON)
@Blocking
@Tag(name = "Redrives", description = "Bulk replay of parked jobs, like SQS' message move task but filtered")
@SecurityRequirement(name = "basic")
@SecurityRequirement(name = "jwt")
@APIResponse(responseCode = "404", description = "Unknown dead-letter stream or redrive")
public class RedriveResource {

    @Inject
    RedriveTasks redrives;

    @Inject
    Callers callers;

    @Inject
    JsonBodies bodies;

    @POST
    @Consumes(MediaType.WILDCARD)
    @RolesAllowed(Roles.OPERATOR)
    @Operation(summary = "Start a bulk redrive",
            description = "Body: {\"filter\": {origin, job, failure, fingerprint, deadFrom, deadTo, ids}, \"maxPerSecond\": "
                    + "100, \"dryRun\": false, \"canary\": 0, \"maxRefailRate\": 0.5, \"note\": \"why\", \"patch\": {\"set\": "
                    + "{name: value}, \"remove\": [name], \"json\": {field: merge patch}}}. A patch changes each entry in "
                    + "the step that moves it (RFC 7396 merge patches on the field's text: untouched bytes stay); an entry "
                    + "it can't apply to stays parked, listed in skippedEntries with its reason; a dry run with a patch "
                    + "answers preview, its first 5 entries before and after (docs/API.md, Patch). Moves the entries "
                    + "that match and were parked before the request, oldest first, each with the atomic replay "
                    + "(so no entry moves twice, even across a restart, which resumes the task from its cursor). With "
                    + "a canary, moves the first `canary` entries, waits until their jobs are done or parked again, and "
                    + "aborts by itself when more than maxRefailRate of them came back. dryRun only counts. "
                    + "maxPerSecond defaults to 100; 0 means no limit. Filters fail closed: an empty ids list or name, "
                    + "or a deadFrom/deadTo outside years 0000-9999, is a 400; so is an unknown field, a field named "
                    + "twice or anything after the JSON object. One redrive of a stream runs at a time: while one "
                    + "is counting, in its canary or running, another is refused with 409 naming it; a dry run moves "
                    + "nothing and may run beside it. With redrive.redrives.require-approval=true a redrive that is not "
                    + "a dry run is not started: the answer is a proposal (state \"proposed\", its Location under "
                    + ".../proposals) that another dlq-operator approves.")
    @APIResponse(responseCode = "202", description = "Started (a redrive; poll the Location), or, with "
            + "redrive.redrives.require-approval, proposed (a proposal; another operator approves it)")
    @APIResponse(responseCode = "409", description = "Another redrive of this dead-letter stream is unfinished "
            + "(redrive-running; the detail names it): wait for it or cancel it")
    @APIResponse(responseCode = "400", description = "Malformed body or filter")
    public Response start(@PathParam("dlq") String dlq, byte[] body) {
        RedriveSpec spec = bodies.redrive(bodies.read(body), true);
        RedriveTasks.Requested done = redrives.request(dlq, spec, callers.name());
        if (done instanceof RedriveTasks.Proposed p) {
            return Response.accepted(p.proposal()).location(Requests.location(dlq, "proposals", p.proposal().id())).build();
        }
        RedriveStatus status = ((RedriveTasks.Started) done).task();
        return Response.accepted(status).location(Requests.location(dlq, "redrives", status.id())).build();
    }

    @GET
    @Path("{task}")
    @RolesAllowed({ Roles.VIEWER, Roles.OPERATOR, Roles.AUTOMATION })
    @Operation(summary = "Progress of a redrive",
            description = "state (counting, canary, running, completed, cancelled, aborted), matched, moved, remaining, "
                    + "failed (moved jobs that were parked again), skipped (could not be moved), skipReason (why, when an "
                    + "origin's key is of another type than a stream), detail.")
    @APIResponse(responseCode = "200", description = "The task")
    public RedriveStatus status(@PathParam("dlq") String dlq, @PathParam("task") String task) {
        return redrives.status(dlq, taskId(task));
    }

    @DELETE
    @Path("{task}")
    @RolesAllowed(Roles.OPERATOR)
    @Operation(summary = "Cancel a redrive", description = "Stops it wherever it runs; what moved stays moved.")
    @APIResponse(responseCode = "200", description = "Cancelled")
    @APIResponse(responseCode = "409", description = "Already finished")
    public RedriveStatus cancel(@PathParam("dlq") String dlq, @PathParam("task") String task) {
        return redrives.cancel(dlq, taskId(task), callers.name());
    }

    private static String taskId(String task) {
        return Requests.uuid(task, "redrive id (a UUID from POST .../redrives)");
    }
}
