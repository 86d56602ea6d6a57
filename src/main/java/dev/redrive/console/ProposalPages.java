package dev.redrive.console;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
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
import dev.redrive.api.ProblemException;
import dev.redrive.api.ReadPermits;
import dev.redrive.api.Requests;
import dev.redrive.api.Roles;
import dev.redrive.deadletter.DeadLetterReader;
import dev.redrive.deadletter.EntryFilter;
import dev.redrive.deadletter.Excerpt;
import dev.redrive.deadletter.RecordField;
import dev.redrive.redrive.FourEyes;
import dev.redrive.redrive.Proposal;
import dev.redrive.redrive.Proposals;
import io.quarkus.qute.TemplateInstance;
import io.smallrye.common.annotation.Blocking;

/**
 * Proposed redrives in the console: a stream's proposals, and one with its filter, what it matched
 * then and matches now, sample entries, who proposed it and why; operators other than the proposer
 * approve or reject it. Through {@link Proposals}, like the API: the same scripts and audit.
 */
@Path(ConsoleUrls.ROOT + "/dlq/{dlq}/proposals")
@Produces(MediaType.TEXT_HTML)
@RolesAllowed({ Roles.VIEWER, Roles.OPERATOR })
@Blocking
public class ProposalPages {

    private static final int SAMPLES = 5;

    @Inject
    Proposals proposals;

    @Inject
    DeadLetterReader reader;

    @Inject
    ReadPermits permits;

    @Inject
    Callers callers;

    @Context
    UriInfo uri;

    /** A row of the list. */
    public record Row(Proposal p, String url) {
    }

    public record ListView(String dlq, List<Row> rows, String causesUrl) {
    }

    /**
     * @param causeUrl        the cause the proposal targets on the Causes page, or null when its filter names none
     * @param causeEntriesUrl that cause's entries, or null
     * @param decideBlocked   why this user's Approve and Reject are disabled, or null when they are not
     * @param patch           the patch and, while it waits, its preview
     */
    public record View(Proposal p, List<String> filter, List<Sample> samples, String url,
            String causesUrl, String listUrl, String taskUrl, String causeUrl, String causeEntriesUrl,
            String decideBlocked, PatchView patch) {
    }

    public record Sample(String id, String url, String reason) {
    }

    @GET
    public TemplateInstance list(@PathParam("dlq") String dlq) {
        Requests.onlyParams(uri, Set.of());
        List<Row> rows = proposals.list(dlq, 100, null).items().stream()
                .map(p -> new Row(p, ConsoleUrls.proposal(dlq, p.id()))).toList();
        return ConsoleTemplates.proposals(Me.of(callers), new ListView(dlq, rows, ConsoleUrls.causes(dlq)));
    }

    @GET
    @Path("{id}")
    public TemplateInstance proposal(@PathParam("dlq") String dlq, @PathParam("id") String id) {
        Requests.onlyParams(uri, Set.of());
        Proposal p = proposals.get(dlq, proposalId(id));
        List<Sample> samples = new ArrayList<>();
        for (Excerpt e : permits.await(reader.page(dlq, p.filter(), false, SAMPLES, null)).items()) {
            samples.add(new Sample(e.id(), ConsoleUrls.entry(dlq, e.id()), e.record().field(RecordField.REASON)));
        }
        Me me = Me.of(callers);
        String fingerprint = p.filter().fingerprint();
        String blocked = !p.open() ? null
                : !me.operator() ? "only a dlq-operator approves or rejects"
                : FourEyes.samePerson(me.user(), p.proposedBy()) ? "you proposed it: another operator decides (four eyes)" : null;
        return ConsoleTemplates.proposal(me, new View(p, describe(p.filter()), samples,
                ConsoleUrls.proposal(dlq, p.id()), ConsoleUrls.causes(dlq), ConsoleUrls.proposals(dlq),
                p.task() == null ? null : ConsoleUrls.redrive(dlq, p.task()),
                fingerprint == null ? null : ConsoleUrls.cause(dlq, fingerprint),
                fingerprint == null ? null : ConsoleUrls.causeEntries(dlq, fingerprint), blocked,
                PatchView.of(dlq, p.patch(), p.preview())));
    }

    @POST
    @Path("{id}/approve")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @RolesAllowed(Roles.OPERATOR)
    public Response approve(@PathParam("dlq") String dlq, @PathParam("id") String id, @RestForm String note) {
        Proposal p = proposals.approve(dlq, proposalId(id), callers.name(), note);
        return Response.seeOther(URI.create(ConsoleUrls.redrive(dlq, p.task()))).build();
    }

    @POST
    @Path("{id}/reject")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @RolesAllowed(Roles.OPERATOR)
    public Response reject(@PathParam("dlq") String dlq, @PathParam("id") String id, @RestForm String note) {
        proposals.reject(dlq, proposalId(id), callers.name(), note);
        return Response.seeOther(URI.create(ConsoleUrls.proposal(dlq, id))).build();
    }

    /** The filter's criteria in words, one a line; "everything" when it has none. */
    static List<String> describe(EntryFilter f) {
        List<String> out = new ArrayList<>();
        add(out, "origin", f.origin());
        add(out, "job", f.job());
        add(out, "failure", f.failure());
        add(out, "cause", f.fingerprint());
        add(out, "parked from", f.deadFrom() == null ? null : f.deadFrom().toString());
        add(out, "parked before", f.deadTo() == null ? null : f.deadTo().toString());
        add(out, "ids", f.ids() == null || f.ids().isEmpty() ? null : ids(f.ids()));
        add(out, "text", f.text());
        return out.isEmpty() ? List.of("everything in the stream") : out;
    }

    /** Ids shown of a filter: the first few, and how many in all (an outage's proposal may hold thousands). */
    static final int IDS_SHOWN = 10;

    private static String ids(List<String> ids) {
        return ids.size() <= IDS_SHOWN ? String.join(", ", ids)
                : String.join(", ", ids.subList(0, IDS_SHOWN)) + " and " + (ids.size() - IDS_SHOWN) + " more ("
                        + ids.size() + " in all; the API's proposal lists every one)";
    }

    private static void add(List<String> out, String name, String value) {
        if (value != null) {
            out.add(name + ": " + value);
        }
    }

    private static String proposalId(String id) {
        return Requests.uuid(id, "proposal id");
    }
}
