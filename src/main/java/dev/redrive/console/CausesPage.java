package dev.redrive.console;

import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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


import dev.redrive.api.ProblemException;
import dev.redrive.api.RedisTimeLimit;
import dev.redrive.api.RedriveSpecs;
import dev.redrive.api.Requests;
import dev.redrive.api.Roles;
import dev.redrive.deadletter.DeadLetterEntry;
import dev.redrive.deadletter.DeadLetterReader;
import dev.redrive.deadletter.DeadLetterSummary;
import dev.redrive.deadletter.Excerpt;
import dev.redrive.deadletter.RecordField;
import io.quarkus.qute.TemplateInstance;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Uni;

/**
 * A dead-letter stream's dead letters grouped by cause (fingerprint), read from the counters
 * beside the stream, so the page costs the same at a hundred or a million entries: the stats hash
 * and one brief read of each shown cause's latest entry.
 */
@Path(ConsoleUrls.ROOT + "/dlq/{dlq}/causes")
@Produces(MediaType.TEXT_HTML)
@RolesAllowed({ Roles.VIEWER, Roles.OPERATOR })
@RedisTimeLimit
public class CausesPage {

    /** Causes shown on one page, each with its sample read. */
    static final int MAX_CAUSES = 50;

    @Inject
    DeadLetterReader reader;

    @Inject
    SecurityIdentity identity;

    @Context
    UriInfo uri;

    /** One entry standing for its cause; null fields when it has since gone. */
    public record Sample(String id, String url, String errorType, String reason, String job, String origin) {
    }

    /** One cause's row. */
    public record Cause(String fingerprint, String text, long count, Instant firstSeen, Instant lastSeen,
            Map<String, Long> byOrigin, Map<String, Long> byJob, Sample sample, String entriesUrl, String chart) {
    }

    /**
     * @param more  causes past {@link #MAX_CAUSES} not shown
     * @param chart the stream's parks per hour ({@link ParkChart})
     */
    public record View(String dlq, String sort, long depth, String chart, List<Cause> causes, int more, String byCountUrl,
            String byRecencyUrl, String entriesUrl, String redriveUrl, int defaultPace, double defaultRefail) {
    }

    @GET
    public Uni<TemplateInstance> causes(@PathParam("dlq") String dlq, @QueryParam("sort") String sort) {
        Requests.onlyParams(uri, Set.of("sort"));
        boolean recent = "recent".equals(sort);
        if (sort != null && !recent && !"count".equals(sort)) {
            throw ProblemException.badRequest("sort must be count or recent (got '" + sort + "')");
        }
        Me me = Me.of(identity);
        return reader.summary(dlq).flatMap(summary -> {
            List<DeadLetterSummary.Cause> sorted = summary.byFingerprint().stream().sorted(recent
                    ? Comparator.comparing(DeadLetterSummary.Cause::lastSeen, Comparator.nullsLast(Comparator.reverseOrder()))
                    : Comparator.comparingLong(DeadLetterSummary.Cause::count).reversed()).toList();
            List<DeadLetterSummary.Cause> shown = sorted.subList(0, Math.min(MAX_CAUSES, sorted.size()));
            List<Uni<Cause>> rows = shown.stream().map(c -> row(dlq, c)).toList();
            Uni<List<Cause>> all = rows.isEmpty() ? Uni.createFrom().item(List.of()) : Uni.join().all(rows).andFailFast();
            return all.map(causes -> ConsoleTemplates.causes(me, new View(dlq, recent ? "recent" : "count",
                    summary.depth(), ParkChart.svg(dlq, summary.parkedPerHour()), causes, sorted.size() - shown.size(), ConsoleUrls.causes(dlq) + "?sort=count",
                    ConsoleUrls.causes(dlq) + "?sort=recent", ConsoleUrls.entries(dlq, Map.of()),
                    ConsoleUrls.stream(dlq) + "/redrives", RedriveSpecs.DEFAULT_MAX_PER_SECOND,
                    RedriveSpecs.DEFAULT_MAX_REFAIL_RATE)));
        });
    }

    private Uni<Cause> row(String dlq, DeadLetterSummary.Cause c) {
        Uni<Optional<Excerpt>> sample = c.sample() == null ? Uni.createFrom().item(Optional.empty())
                : reader.brief(dlq, c.sample());
        return sample.map(found -> new Cause(c.fingerprint(), c.text(), c.count(), c.firstSeen(), c.lastSeen(),
                c.byOrigin(), c.byJob(), found.map(e -> sample(dlq, e.record())).orElse(null),
                ConsoleUrls.causeEntries(dlq, c.fingerprint()),
                ParkChart.svg("cause " + c.fingerprint() + " (" + c.text() + ")", c.parkedPerHour())));
    }

    private static Sample sample(String dlq, DeadLetterEntry e) {
        return new Sample(e.id(), ConsoleUrls.entry(dlq, e.id()), e.field(RecordField.ERROR_TYPE),
                e.field(RecordField.REASON), e.job(), e.originStream());
    }
}
