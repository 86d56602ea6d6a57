package dev.redrive.console;

import java.time.Instant;
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


import dev.redrive.api.Callers;
import dev.redrive.api.ProblemException;
import dev.redrive.api.ReadPermits;
import dev.redrive.api.RedisTimeLimit;
import dev.redrive.api.RedriveSpecs;
import dev.redrive.api.Requests;
import dev.redrive.api.Roles;
import dev.redrive.config.RedriveConfig;
import dev.redrive.deadletter.DeadLetterEntry;
import dev.redrive.deadletter.DeadLetterReader;
import dev.redrive.deadletter.EntryFilter;
import dev.redrive.deadletter.Excerpt;
import dev.redrive.deadletter.RecordField;
import io.quarkus.qute.TemplateInstance;
import io.smallrye.mutiny.Uni;

/**
 * A filtered page of dead letters, newest or oldest first, with a cursor to the next page: the
 * same listing as {@code GET /dlq/{dlq}/entries} (list.lua, at most redrive.replay.scan-limit
 * entries examined per page), so a page and a redrive of its filter pick the same entries.
 */
@Path(ConsoleUrls.ROOT + "/dlq/{dlq}/entries")
@Produces(MediaType.TEXT_HTML)
@RolesAllowed({ Roles.VIEWER, Roles.OPERATOR })
@RedisTimeLimit
public class EntriesPage {

    static final int PAGE = 50;
    private static final int REASON_SHOWN = 240;

    @Inject
    DeadLetterReader reader;

    @Inject
    ReadPermits permits;

    @Inject
    RedriveConfig config;

    @Inject
    Callers callers;

    @Context
    UriInfo uri;

    /** One dead letter's row. */
    public record Row(String id, String url, Instant deadAt, String origin, String job, String failure, String errorType,
            String reason, String fingerprint, String causeUrl, int attempts, int replays, boolean repeatOffender) {
    }

    /**
     * @param filter     the criteria given, for the search form and the redrive form's hidden fields
     * @param nextUrl    the next page, or null at the end of the stream
     * @param examined   entries the page's look examined (filtered out or not)
     */
    public record View(String dlq, Map<String, String> filter, boolean newestFirst, List<Row> rows, String nextUrl,
            int examined, String newestUrl, String oldestUrl, String causesUrl, String redriveUrl,
            List<String> failureKinds, int defaultPace, double defaultRefail) {
    }

    @GET
    public Uni<TemplateInstance> entries(@PathParam("dlq") String dlq, @QueryParam("origin") String origin,
            @QueryParam("job") String job, @QueryParam("failure") String failure,
            @QueryParam("fingerprint") String fingerprint, @QueryParam("deadFrom") String deadFrom,
            @QueryParam("deadTo") String deadTo, @QueryParam("text") String text, @QueryParam("order") String order,
            @QueryParam("after") String after) {
        Requests.onlyParams(uri, Set.of("origin", "job", "failure", "fingerprint", "deadFrom", "deadTo", "text", "order",
                "after"));
        boolean oldest = "oldest".equals(order);
        if (order != null && !order.isEmpty() && !oldest && !"newest".equals(order)) {
            throw ProblemException.badRequest("order must be newest or oldest (got '" + order + "')");
        }
        FilterForm form = new FilterForm(origin, job, failure, fingerprint, deadFrom, deadTo, text);
        EntryFilter filter = form.forListing();
        String cursor = Requests.cursor(after);
        Map<String, String> given = form.values();
        int repeat = config.replay().repeatOffenderAfter();
        Me me = Me.of(callers);
        return permits.run(() -> reader.page(dlq, filter, !oldest, PAGE, cursor)).map(page -> {
            List<Row> rows = page.items().stream().map(e -> row(dlq, e, repeat)).toList();
            Map<String, String> ordered = ConsoleUrls.with(given, "order", oldest ? "oldest" : null);
            String next = page.next() == null ? null : ConsoleUrls.entries(dlq, ConsoleUrls.with(ordered, "after", page.next()));
            return ConsoleTemplates.entries(me, new View(dlq, given, !oldest, rows, next, page.examined(),
                    ConsoleUrls.entries(dlq, given), ConsoleUrls.entries(dlq, ConsoleUrls.with(given, "order", "oldest")),
                    ConsoleUrls.causes(dlq), ConsoleUrls.stream(dlq) + "/redrives",
                    EntryFilter.FAILURE_KINDS.stream().sorted().toList(), RedriveSpecs.DEFAULT_MAX_PER_SECOND,
                    RedriveSpecs.DEFAULT_MAX_REFAIL_RATE));
        });
    }

    private static Row row(String dlq, Excerpt excerpt, int repeatOffenderAfter) {
        DeadLetterEntry e = excerpt.record();
        String reason = e.field(RecordField.REASON);
        if (reason.length() > REASON_SHOWN) {
            reason = reason.substring(0, REASON_SHOWN) + "…";
        }
        return new Row(e.id(), ConsoleUrls.entry(dlq, e.id()), e.deadAt(), e.originStream(), e.job(), e.failure(),
                e.field(RecordField.ERROR_TYPE), reason, e.fingerprint(), ConsoleUrls.causeEntries(dlq, e.fingerprint()),
                e.attempts(), e.replays(), e.replays() >= repeatOffenderAfter);
    }
}
