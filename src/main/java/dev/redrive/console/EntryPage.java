package dev.redrive.console;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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


import com.fasterxml.jackson.databind.ObjectMapper;

import dev.redrive.api.Callers;
import dev.redrive.api.ReadPermits;
import dev.redrive.api.RedisTimeLimit;
import dev.redrive.api.Requests;
import dev.redrive.api.Roles;
import dev.redrive.deadletter.DeadLetterReader;
import dev.redrive.deadletter.EntryHistory;
import dev.redrive.deadletter.Excerpt;
import dev.redrive.deadletter.RecordField;
import dev.redrive.deadletter.Reveals;
import io.quarkus.qute.TemplateInstance;
import io.smallrye.mutiny.Uni;

/**
 * One dead letter: its record, its snapshot (JSON indented, bytes as base64 and hex, redacted
 * fields masked), its timeline along the replay chain, and for operators the replay, discard and
 * reveal forms. An entry that is gone (replayed, discarded) still has a page: what the audit trail
 * says of it.
 */
@Path(ConsoleUrls.ROOT + "/dlq/{dlq}/entries/{id}")
@Produces(MediaType.TEXT_HTML)
@RolesAllowed({ Roles.VIEWER, Roles.OPERATOR })
@RedisTimeLimit
public class EntryPage {

    @Inject
    DeadLetterReader reader;

    @Inject
    EntryHistory histories;

    @Inject
    Reveals reveals;

    @Inject
    ReadPermits permits;

    @Inject
    ConsoleSettings settings;

    @Inject
    ObjectMapper json;

    @Inject
    Callers callers;

    @Context
    UriInfo uri;

    /** One field of the record itself. */
    public record Field(String name, String value) {
    }

    /**
     * @param present  the entry is still parked (else only its history is shown)
     * @param masked   names of snapshot fields shown masked
     */
    public record View(String dlq, String id, boolean present, List<Field> record, List<FieldView> snapshot,
            List<String> masked, boolean revealed, List<Timeline.Event> timeline, boolean historyComplete,
            String url, String causeUrl, String entriesUrl, boolean replayable) {

        public boolean anyEditable() {
            return snapshot.stream().anyMatch(FieldView::editable);
        }
    }

    @GET
    public Uni<TemplateInstance> entry(@PathParam("dlq") String dlq, @PathParam("id") String id) {
        Requests.onlyParams(uri, Set.of());
        Requests.entryId(id);
        Me me = Me.of(callers);
        return load(dlq, id).map(loaded -> ConsoleTemplates.entry(me, view(dlq, id, loaded.entry(), loaded.history(), false)));
    }

    /**
     * Shows the redacted fields of this one entry. Everything that can fail runs first (the
     * checks, the read, the page rendered from that one read); the audit record names exactly the
     * fields that page shows, and only then is the page sent, so no reveal is audited that no one
     * saw, and none is shown unaudited.
     */
    @POST
    @Path("reveal")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @RolesAllowed(Roles.OPERATOR)
    public Uni<Response> reveal(@PathParam("dlq") String dlq, @PathParam("id") String id) {
        Requests.entryId(id);
        Me me = Me.of(callers);
        return load(dlq, id).flatMap(loaded -> {
            Excerpt entry = loaded.entry().orElseThrow(() -> dev.redrive.api.Filters.gone(dlq, id));
            View view = view(dlq, id, loaded.entry(), loaded.history(), true);
            String html = ConsoleTemplates.entry(me, view).render();
            List<String> shown = entry.snapshot().keySet().stream().filter(settings.redacted()::contains).toList();
            Uni<?> audited = shown.isEmpty() ? Uni.createFrom().voidItem() : reveals.record(dlq, id, shown, me.user());
            return audited.map(done -> Response.ok(html, MediaType.TEXT_HTML_TYPE.withCharset("UTF-8")).build());
        });
    }

    /** One read of the entry (empty when it is gone) and its history. */
    record Loaded(Optional<Excerpt> entry, EntryHistory.History history) {
    }

    private Uni<Loaded> load(String dlq, String id) {
        return permits.run(() -> reader.excerpt(dlq, id)).flatMap(found -> {
            Excerpt entry = found.orElse(null);
            String originStream = entry == null ? null : entry.record().originStream();
            String originId = entry == null ? null : entry.record().originId();
            return histories.of(dlq, id, originStream, originId).map(history -> new Loaded(found, history));
        });
    }

    private View view(String dlq, String id, Optional<Excerpt> found, EntryHistory.History history, boolean reveal) {
        List<Field> record = new ArrayList<>();
        List<FieldView> snapshot = List.of();
        List<String> masked = List.of();
        String causeUrl = null;
        boolean replayable = false;
        if (found.isPresent()) {
            Excerpt entry = found.get();
            entry.fields().forEach((name, value) -> {
                if (RecordField.snapshotName(name) == null) {
                    record.add(new Field(name, new String(value.bytes(), StandardCharsets.UTF_8)
                            + (value.truncated() ? " … (" + value.size() + " bytes)" : "")));
                }
            });
            snapshot = FieldView.all(entry.snapshot(), settings.redacted(), reveal, json);
            masked = snapshot.stream().filter(FieldView::masked).map(FieldView::name).toList();
            causeUrl = ConsoleUrls.causeEntries(dlq, entry.record().fingerprint());
            replayable = !entry.record().snapshotMissing();
        }
        return new View(dlq, id, found.isPresent(), record, snapshot, masked, reveal && found.isPresent(),
                Timeline.of(dlq, id, found.orElse(null), history), history.complete(), ConsoleUrls.entry(dlq, id),
                causeUrl, ConsoleUrls.entries(dlq, Map.of()), replayable);
    }
}
