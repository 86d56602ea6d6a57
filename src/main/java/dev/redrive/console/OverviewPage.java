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


import dev.redrive.api.RedisTimeLimit;
import dev.redrive.api.Roles;
import dev.redrive.deadletter.DeadLetterReader;
import dev.redrive.deadletter.DeadLetterSummary;
import io.quarkus.qute.TemplateInstance;
import io.quarkus.security.identity.SecurityIdentity;
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
    ConsoleSettings settings;

    @Inject
    SecurityIdentity identity;

    /** One dead-letter stream's row. */
    public record Stream(String name, String causesUrl, String entriesUrl, long depth, Instant oldest, Instant newest,
            String perMinute, Map<String, Long> byFailure, Map<String, Long> byOrigin, int causes, String chart) {

        static Stream of(DeadLetterSummary s) {
            return new Stream(s.name(), ConsoleUrls.causes(s.name()), ConsoleUrls.entries(s.name(), Map.of()), s.depth(),
                    s.oldestDeadAt(), s.newestDeadAt(), String.format("%.1f", s.parkedLastFiveMinutes() / 5.0),
                    s.byFailure(), s.byOrigin(), s.byFingerprint().size(), ParkChart.svg(s.name(), s.parkedPerHour()));
        }
    }

    /** What the page shows. */
    public record View(List<Stream> streams, List<QueueFigures.Queue> queues, long refreshMillis) {
    }

    @GET
    public Uni<TemplateInstance> overview() {
        Me me = Me.of(identity);
        return view().map(view -> ConsoleTemplates.overview(me, view));
    }

    /** The part of the overview that refreshes itself. */
    @GET
    @Path("live")
    public Uni<TemplateInstance> live() {
        return view().map(ConsoleTemplates::overview$live);
    }

    private Uni<View> view() {
        return reader.summaries().map(all -> new View(all.stream().map(Stream::of).toList(), queues.all(),
                settings.refreshMillis()));
    }
}
