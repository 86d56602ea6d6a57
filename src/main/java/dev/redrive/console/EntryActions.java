package dev.redrive.console;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.jboss.resteasy.reactive.RestForm;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.redrive.api.Callers;
import dev.redrive.api.Filters;
import dev.redrive.api.ProblemException;
import dev.redrive.api.ReadPermits;
import dev.redrive.api.RedisTimeLimit;
import dev.redrive.api.ReplayPatches;
import dev.redrive.api.Requests;
import dev.redrive.api.Roles;
import dev.redrive.config.RedriveConfig;
import dev.redrive.deadletter.DeadLetterReader;
import dev.redrive.deadletter.Excerpt;
import dev.redrive.deadletter.Replays;
import io.smallrye.mutiny.Uni;

/**
 * An operator's replay and discard of one dead letter, through {@link Replays} like the API's (the
 * same scripts, the same audit records). A replay is two steps: the form posts the edited fields,
 * the answer shows the diff of every changed field and what will be sent, and only its confirm
 * replays; the confirm carries a key made for the preview, sent as the replay's Idempotency-Key,
 * so a double click replays once.
 */
@Path(ConsoleUrls.ROOT + "/dlq/{dlq}/entries/{id}")
@Produces(MediaType.TEXT_HTML)
@RolesAllowed(Roles.OPERATOR)
@RedisTimeLimit
public class EntryActions {

    @Inject
    DeadLetterReader reader;

    @Inject
    Replays replays;

    @Inject
    ReadPermits permits;

    @Inject
    RedriveConfig config;

    @Inject
    ConsoleSettings settings;

    @Inject
    Callers callers;

    @Inject
    ObjectMapper json;

    /** One field the replay changes: its diff, and the new text the confirm form sends again. */
    public record Change(String name, List<LineDiff.Line> diff, String text) {
    }

    /** The replay as it will be sent. */
    public record Preview(String dlq, String id, String entryUrl, List<Change> changes, String note, String key) {
    }

    @POST
    @Path("replay")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Uni<Response> replay(@PathParam("dlq") String dlq, @PathParam("id") String id, @RestForm List<String> name,
            @RestForm List<String> value, @RestForm String note, @RestForm String confirm, @RestForm String key) {
        Requests.entryId(id);
        List<String> names = name == null ? List.of() : name;
        List<String> values = value == null ? List.of() : value;
        if (names.size() != values.size()) {
            throw ProblemException.badRequest("every edited field needs a name and a value (got " + names.size()
                    + " names, " + values.size() + " values)");
        }
        String why = Replays.note(note);
        String idempotencyKey = confirm == null ? null : Replays.idempotencyKey(key);
        return permits.run(() -> reader.excerpt(dlq, id)).flatMap(found -> {
            if (found.isEmpty() && confirm != null && idempotencyKey != null) {
                // A confirm clicked twice: the entry went with the first click, whose answer the key gets back.
                return replay(dlq, id, Map.of(), why, idempotencyKey);
            }
            Excerpt entry = found.orElseThrow(() -> Filters.gone(dlq, id));
            List<Change> changes = changes(entry, names, values);
            if (confirm == null) {
                return Uni.createFrom().item(Response.ok(ConsoleTemplates.replay(Me.of(callers), new Preview(dlq, id,
                        ConsoleUrls.entry(dlq, id), changes, why, UUID.randomUUID().toString()))).build());
            }
            Map<String, byte[]> patch = new LinkedHashMap<>();
            changes.forEach(c -> patch.put(c.name(), c.text().getBytes(StandardCharsets.UTF_8)));
            ReplayPatches.requireWithin(patch, config.replay().maxBodyBytes());
            return replay(dlq, id, patch, why, idempotencyKey);
        });
    }

    private Uni<Response> replay(String dlq, String id, Map<String, byte[]> patch, String note, String idempotencyKey) {
        return replays.replay(new Replays.Request(dlq, id, patch, note, callers.name(), idempotencyKey))
                .map(done -> Response.seeOther(URI.create(ConsoleUrls.entry(dlq, id))).build());
    }

    @POST
    @Path("discard")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Uni<Response> discard(@PathParam("dlq") String dlq, @PathParam("id") String id, @RestForm String reason) {
        Requests.entryId(id);
        return replays.discard(dlq, id, reason, callers.name())
                .map(audit -> Response.seeOther(URI.create(ConsoleUrls.entry(dlq, id))).build());
    }

    /**
     * The edited fields whose text differs from the snapshot's. Only whole UTF-8 fields that are
     * not masked can be edited; naming any other field is refused, so a replay never sends a
     * masked or cut value it did not show.
     */
    private List<Change> changes(Excerpt entry, List<String> names, List<String> values) {
        Map<String, Excerpt.Value> snapshot = entry.snapshot();
        List<Change> changes = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            String field = names.get(i);
            Excerpt.Value now = snapshot.get(field);
            FieldView shown = now == null ? null : FieldView.of(field, now, settings.redacted().contains(field), json);
            if (shown == null || !shown.editable()) {
                throw ProblemException.badRequest("field '" + field + "' can't be edited here (unknown, masked, cut or "
                        + "not text); replay with the API to patch it");
            }
            String edited = values.get(i).replace("\r\n", "\n");
            if (!edited.equals(shown.raw())) {
                changes.add(new Change(field, LineDiff.of(shown.raw(), edited), edited));
            }
        }
        return changes;
    }
}
