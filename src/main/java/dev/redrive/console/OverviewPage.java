package dev.redrive.console;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;


import dev.redrive.api.Callers;
import dev.redrive.api.RedisTimeLimit;
import dev.redrive.api.Roles;
import dev.redrive.deadletter.DeadLetterReader;
import dev.redrive.deadletter.DeadLetterSummary;
import dev.redrive.redrive.Proposals;
import io.quarkus.qute.TemplateInstance;
import io.smallrye.mutiny.Uni;

/**
 * The console's first page: every dead-letter stream and every queue at a glance, from the same
 * counters as {@code GET /dlq} and this process' gauges; its live part refreshes itself.
 */
@Path(ConsoleUrls.ROOT)
@Produces(MediaType.TEXT_HTML)
@RolesAllowed({ Roles.VIEWER, Roles.OPERATOR })
@RedisTimeLimit
public class OverviewPage {

    @Inject
    DeadLetterReader reader;

    @Inject
    QueueFigures queues;

    @Inject
    Proposals proposals;

    @Inject
    ConsoleSettings settings;

    @Inject
    Callers callers;

    /**
     * Proposals that wait for a decision: {@code count}, or more when {@code more} (a stream's are
     * counted up to {@link Proposals#WAITING_LIMIT}).
     */
    public record Waiting(long count, boolean more) {

        static final Waiting NONE = new Waiting(0, false);

        static Waiting of(Proposals.Waiting w) {
            return new Waiting(w.count(), w.more());
        }

        public boolean any() {
            return count > 0;
        }

        /** "3", or "50+" when more wait than were counted. */
        public String text() {
            return count + (more ? "+" : "");
        }

        Waiting plus(Waiting other) {
            return new Waiting(count + other.count, more || other.more);
        }
    }

    /** One dead-letter stream's row; {@code waiting} its proposals waiting for a decision. */
    public record Stream(String name, String causesUrl, String entriesUrl, long depth, Instant oldest, Instant newest,
            String perMinute, Map<String, Long> byFailure, Map<String, Long> byOrigin, int causes, String chart,
            Waiting waiting, String proposalsUrl) {

        static Stream of(DeadLetterSummary s, Proposals.Waiting waiting) {
            return new Stream(s.name(), ConsoleUrls.causes(s.name()), ConsoleUrls.entries(s.name(), Map.of()), s.depth(),
                    s.oldestDeadAt(), s.newestDeadAt(), String.format("%.1f", s.parkedLastFiveMinutes() / 5.0),
                    s.byFailure(), s.byOrigin(), s.byFingerprint().size(), ParkChart.svg(s.name(), s.parkedPerHour()),
                    Waiting.of(waiting), ConsoleUrls.proposals(s.name()));
        }
    }

    /** What the page shows; {@code waiting} the proposals waiting in all streams together. */
    public record View(List<Stream> streams, List<QueueFigures.Queue> queues, long refreshMillis, Waiting waiting) {
    }

    @GET
    public Uni<TemplateInstance> overview() {
        Me me = Me.of(callers);
        return view().map(view -> ConsoleTemplates.overview(me, view));
    }

    /** The part of the overview that refreshes itself. */
    @GET
    @Path("live")
    public Uni<TemplateInstance> live() {
        return view().map(ConsoleTemplates::overview$live);
    }

    /** The counters of every stream, and one bounded read per stream of its waiting proposals. */
    private Uni<View> view() {
        return reader.summaries().flatMap(all -> {
            if (all.isEmpty()) {
                return Uni.createFrom().item(new View(List.of(), queues.all(), settings.refreshMillis(), Waiting.NONE));
            }
            List<Uni<Stream>> rows = all.stream()
                    .map(s -> proposals.waiting(s.name()).map(waiting -> Stream.of(s, waiting))).toList();
            return Uni.join().all(rows).andFailFast().map(streams -> new View(streams, queues.all(),
                    settings.refreshMillis(), streams.stream().map(Stream::waiting).reduce(Waiting.NONE, Waiting::plus)));
        });
    }
}
