package dev.redrive.console;

import java.net.URI;
import java.util.Set;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;

import org.jboss.resteasy.reactive.RestForm;

import dev.redrive.api.Callers;
import dev.redrive.api.JsonBodies;
import dev.redrive.api.ProblemException;
import dev.redrive.api.RedriveSpecs;
import dev.redrive.api.Requests;
import dev.redrive.api.Roles;
import dev.redrive.deadletter.EntryFilter;
import dev.redrive.redrive.RedriveSpec;
import dev.redrive.redrive.RedriveStatus;
import dev.redrive.redrive.RedriveTasks;
import io.quarkus.qute.TemplateInstance;
import io.smallrye.common.annotation.Blocking;

/**
 * Bulk redrives from the console: start one of a filter or a cause (dry run, pace, canary, most
 * re-failures), watch its progress and the canary's verdict live, cancel it. Through
 * {@link RedriveTasks#request}, like {@code POST /dlq/{dlq}/redrives}: the same task, runner and
 * audit, and the same approval rule (with require-approval the form lands on the proposal it made).
 */
@Path(ConsoleUrls.ROOT + "/dlq/{dlq}/redrives")
@Produces(MediaType.TEXT_HTML)
@RolesAllowed({ Roles.VIEWER, Roles.OPERATOR })
@Blocking
public class RedrivePages {

    @Inject
    RedriveTasks redrives;

    @Inject
    ConsoleSettings settings;

    @Inject
    Callers callers;

    @Inject
    JsonBodies bodies;

    @Context
    UriInfo uri;

    /**
     * @param verdict what the canary found, in words, or null while there is none
     */
    public record View(RedriveStatus task, String url, String liveUrl, String cancelUrl, String confirmUrl,
            String causesUrl, boolean finished, String verdict, long refreshMillis, PatchView patch) {

        static View of(RedriveStatus s, long refreshMillis) {
            String url = ConsoleUrls.redrive(s.dlq(), s.id());
            return new View(s, url, url + "/live", url + "/cancel", url + "/confirm", ConsoleUrls.causes(s.dlq()),
                    s.finishedAt() != null || Set.of("completed", "cancelled", "aborted").contains(s.state()),
                    verdict(s), Math.max(500, refreshMillis / 5), PatchView.of(s.dlq(), s.patch(), s.preview()));
        }

        private static String verdict(RedriveStatus s) {
            if (s.canary() == 0 || s.dryRun()) {
                return null;
            }
            return switch (s.state()) {
                case "counting" -> null;
                case "canary" -> "canary under way: " + s.canaryMoved() + " of " + s.canary() + " moved, waiting for their jobs";
                case "aborted" -> "canary failed: " + s.detail();
                case "cancelled" -> s.moved() > s.canaryMoved() ? "canary passed" : "cancelled before a verdict";
                default -> "canary passed: " + s.failed() + " of " + s.canaryMoved() + " canary jobs came back";
            };
        }
    }

    @POST
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @RolesAllowed(Roles.OPERATOR)
    public Response start(@PathParam("dlq") String dlq, @RestForm String origin, @RestForm String job,
            @RestForm String failure, @RestForm String fingerprint, @RestForm String deadFrom, @RestForm String deadTo,
            @RestForm String text, @RestForm String maxPerSecond, @RestForm String canary,
            @RestForm String maxRefailRate, @RestForm String dryRun, @RestForm String all, @RestForm String note,
            @RestForm String patch) {
        FilterForm filter = new FilterForm(origin, job, failure, fingerprint, deadFrom, deadTo, text);
        EntryFilter selection = filter.forRedrive();
        everythingOnlyIfAsked(filter, all);
        RedriveSpec spec = RedriveSpecs.of(selection, number("maxPerSecond", maxPerSecond), dryRun(dryRun),
                number("canary", canary), rate(maxRefailRate), note == null || note.isBlank() ? null : note.trim(), bodies.patch(patch));
        return started(dlq, redrives.request(dlq, spec, callers.name()));
    }

    /** Where a request for a redrive leads: its task's page, or the proposal's when it was proposed. */
    private static Response started(String dlq, RedriveTasks.Requested done) {
        if (done instanceof RedriveTasks.Proposed p) {
            return Response.seeOther(URI.create(ConsoleUrls.proposal(dlq, p.proposal().id()))).build();
        }
        return Response.seeOther(URI.create(ConsoleUrls.redrive(dlq, ((RedriveTasks.Started) done).task().id()))).build();
    }

    @GET
    @Path("{task}")
    public TemplateInstance task(@PathParam("dlq") String dlq, @PathParam("task") String task) {
        Requests.onlyParams(uri, Set.of());
        return ConsoleTemplates.redrive(Me.of(callers), View.of(redrives.status(dlq, taskId(task)), settings.refreshMillis()));
    }

    /** The part of the task page that refreshes itself until the task is finished. */
    @GET
    @Path("{task}/live")
    public TemplateInstance live(@PathParam("dlq") String dlq, @PathParam("task") String task) {
        Requests.onlyParams(uri, Set.of());
        return ConsoleTemplates.redrive$live(Me.of(callers), View.of(redrives.status(dlq, taskId(task)),
                settings.refreshMillis()));
    }

    /**
     * Starts, for real, the redrive a dry run counted and previewed: its filter, pace, canary and
     * patch, as any start (proposed instead when approval is required).
     */
    @POST
    @Path("{task}/confirm")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @RolesAllowed(Roles.OPERATOR)
    public Response confirm(@PathParam("dlq") String dlq, @PathParam("task") String task) {
        return started(dlq, redrives.request(dlq, redrives.confirmed(dlq, taskId(task)), callers.name()));
    }

    @POST
    @Path("{task}/cancel")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @RolesAllowed(Roles.OPERATOR)
    public Response cancel(@PathParam("dlq") String dlq, @PathParam("task") String task) {
        redrives.cancel(dlq, taskId(task), callers.name());
        return Response.seeOther(URI.create(ConsoleUrls.redrive(dlq, task))).build();
    }

    private static String taskId(String task) {
        return Requests.uuid(task, "redrive id");
    }

    /**
     * A form that names no criterion would move every dead letter of the stream: it must say so
     * with all=true (the entries page's form does when no filter is set), so a request that lost
     * its fields is refused instead of read as "everything".
     */
    private static void everythingOnlyIfAsked(FilterForm filter, String all) {
        if (all != null && !all.equals("true")) {
            throw ProblemException.badRequest("all must be 'true' when given (got '" + all + "')");
        }
        if (filter.values().isEmpty() && all == null) {
            throw ProblemException.badRequest("the form names no criterion; send all=true to redrive every dead letter "
                    + "of the stream");
        }
        if (!filter.values().isEmpty() && all != null) {
            throw ProblemException.badRequest("all=true and criteria " + filter.values().keySet() + " contradict each other");
        }
    }

    /** Required: the form's two buttons send true or false, and a request without it is not guessed at. */
    private static boolean dryRun(String raw) {
        if ("true".equals(raw) || "false".equals(raw)) {
            return Boolean.parseBoolean(raw);
        }
        throw ProblemException.badRequest("dryRun is required: true (count only) or false (move)"
                + (raw == null ? "" : " (got '" + raw + "')"));
    }

    private static Integer number(String name, String raw) {
        if (raw == null || raw.isBlank()) {
            return null;
        }
        try {
            return Integer.valueOf(raw.trim());
        } catch (NumberFormatException e) {
            throw ProblemException.badRequest(name + " must be a whole number (got '" + raw + "')");
        }
    }

    private static Double rate(String raw) {
        if (raw == null || raw.isBlank()) {
            return null;
        }
        try {
            return Double.valueOf(raw.trim());
        } catch (NumberFormatException e) {
            throw ProblemException.badRequest("maxRefailRate must be a number from 0 to 1 (got '" + raw + "')");
        }
    }
}
