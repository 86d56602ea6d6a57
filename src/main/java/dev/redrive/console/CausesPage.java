package dev.redrive.console;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
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


import dev.redrive.api.Callers;
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
import dev.redrive.redrive.Proposal;
import dev.redrive.redrive.Proposals;
import io.quarkus.qute.TemplateInstance;
import io.smallrye.mutiny.Uni;

/**
 * A dead-letter stream's dead letters grouped by cause (fingerprint), read from the counters
 * beside the stream, so the page costs the same at a hundred or a million entries: the stats hash
 * and one brief read of each shown cause's latest entry, and the stream's waiting proposals (at
 * most {@link Proposals#WAITING_LIMIT}), so each cause links to the redrives proposed of it.
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
    Proposals proposals;

    @Inject
    Callers callers;

    @Context
    UriInfo uri;

    /** One entry standing for its cause; null fields when it has since gone. */
    public record Sample(String id, String url, String errorType, String reason, String job, String origin) {
    }

    /** A proposed redrive of the cause that waits for a decision, linking to it; {@code byRedrive}: redrive itself proposed it. */
    public record Waiting(String id, String url, String proposedBy, boolean byRedrive, Instant proposedAt, long matched,
            String note) {

        static Waiting of(String dlq, Proposal p) {
            return new Waiting(p.id(), ConsoleUrls.proposal(dlq, p.id()), p.proposedBy(), p.byRedrive(), p.proposedAt(),
                    p.matched(), p.note());
        }
    }

    /** One cause's row; {@code waiting} the proposed redrives of this cause (by its fingerprint) that wait for a decision. */
    public record Cause(String fingerprint, String text, long count, Instant firstSeen, Instant lastSeen,
            Map<String, Long> byOrigin, Map<String, Long> byJob, Sample sample, String entriesUrl, String chart,
            List<Waiting> waiting) {
    }

    /**
     * @param more  causes past {@link #MAX_CAUSES} not shown
     * @param chart the stream's parks per hour ({@link ParkChart})
     * @param waiting the stream's proposals waiting for a decision, of any cause or none (at most
     *                {@link Proposals#WAITING_LIMIT} are read and linked from their causes)
     */
    public record View(String dlq, String sort, long depth, String chart, List<Cause> causes, int more, String byCountUrl,
            String byRecencyUrl, String entriesUrl, String redriveUrl, int defaultPace, double defaultRefail,
            OverviewPage.Waiting waiting, String proposalsUrl) {
    }

    @GET
    public Uni<TemplateInstance> causes(@PathParam("dlq") String dlq, @QueryParam("sort") String sort) {
        Requests.onlyParams(uri, Set.of("sort"));
        boolean recent = "recent".equals(sort);
        if (sort != null && !recent && !"count".equals(sort)) {
            throw ProblemException.badRequest("sort must be count or recent (got '" + sort + "')");
        }
        Me me = Me.of(callers);
        return Uni.combine().all().unis(reader.summary(dlq), proposals.waitingProposals(dlq), proposals.waiting(dlq))
                .asTuple().flatMap(read -> {
            DeadLetterSummary summary = read.getItem1();
            Map<String, List<Waiting>> byCause = new HashMap<>();
            for (Proposal p : read.getItem2()) {
                if (p.filter().fingerprint() != null) {
                    byCause.computeIfAbsent(p.filter().fingerprint(), fp -> new ArrayList<>()).add(Waiting.of(dlq, p));
                }
            }
            List<DeadLetterSummary.Cause> sorted = summary.byFingerprint().stream().sorted(recent
                    ? Comparator.comparing(DeadLetterSummary.Cause::lastSeen, Comparator.nullsLast(Comparator.reverseOrder()))
                    : Comparator.comparingLong(DeadLetterSummary.Cause::count).reversed()).toList();
            List<DeadLetterSummary.Cause> shown = sorted.subList(0, Math.min(MAX_CAUSES, sorted.size()));
            List<Uni<Cause>> rows = shown.stream()
                    .map(c -> row(dlq, c, byCause.getOrDefault(c.fingerprint(), List.of()))).toList();
            Uni<List<Cause>> all = rows.isEmpty() ? Uni.createFrom().item(List.of()) : Uni.join().all(rows).andFailFast();
            return all.map(causes -> ConsoleTemplates.causes(me, new View(dlq, recent ? "recent" : "count",
                    summary.depth(), ParkChart.svg(dlq, summary.parkedPerHour()), causes, sorted.size() - shown.size(), ConsoleUrls.causes(dlq) + "?sort=count",
                    ConsoleUrls.causes(dlq) + "?sort=recent", ConsoleUrls.entries(dlq, Map.of()),
                    ConsoleUrls.stream(dlq) + "/redrives", RedriveSpecs.DEFAULT_MAX_PER_SECOND,
                    RedriveSpecs.DEFAULT_MAX_REFAIL_RATE, OverviewPage.Waiting.of(read.getItem3()),
                    ConsoleUrls.proposals(dlq))));
        });
    }

    private Uni<Cause> row(String dlq, DeadLetterSummary.Cause c, List<Waiting> waiting) {
        Uni<Optional<Excerpt>> sample = c.sample() == null ? Uni.createFrom().item(Optional.empty())
                : reader.brief(dlq, c.sample());
        return sample.map(found -> new Cause(c.fingerprint(), c.text(), c.count(), c.firstSeen(), c.lastSeen(),
                c.byOrigin(), c.byJob(), found.map(e -> sample(dlq, e.record())).orElse(null),
                ConsoleUrls.causeEntries(dlq, c.fingerprint()),
                ParkChart.svg("cause " + c.fingerprint() + " (" + c.text() + ")", c.parkedPerHour()), waiting));
    }

    private static Sample sample(String dlq, DeadLetterEntry e) {
        return new Sample(e.id(), ConsoleUrls.entry(dlq, e.id()), e.field(RecordField.ERROR_TYPE),
                e.field(RecordField.REASON), e.job(), e.originStream());
    }
}
