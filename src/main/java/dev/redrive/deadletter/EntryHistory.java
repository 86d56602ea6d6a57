package dev.redrive.deadletter;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.redrive.config.RedriveConfig;
import io.smallrye.mutiny.Uni;

/**
 * What the audit trail says of one dead letter: its replays, discard and reveals, and which dead
 * letter was replayed into the job it came from, so a timeline can walk a replay chain back even
 * through entries that are gone. The trail is read newest first, at most
 * {@code redrive.replay.scan-limit} records per look (a page at a time, each cut like any audit
 * page), so the cost never grows with the trail; {@link History#complete} says whether it reached
 * the trail's start.
 */
@ApplicationScoped
public class EntryHistory {

    private static final int PAGE = 100;
    /** Replays remembered per look while searching for the one that made a job (bounds the memory). */
    private static final int MAX_REPLAYS_KEPT = 10_000;

    @Inject
    DeadLetterReader reader;

    @Inject
    RedriveConfig config;

    /** One audit record about the entry (a redrive's moves record is cut to the entry's own line). */
    public record Line(String auditId, Map<String, String> fields) {

        public String field(String name) {
            return fields.getOrDefault(name, "");
        }
    }

    /**
     * @param lines      audit records about the entry, newest first
     * @param originId   the id its job had in its origin stream (from the record, else from a replay record), or null
     * @param replayOf   the dead-letter id whose replay added that job, when the trail holds that replay, else null
     * @param complete   the look reached the start of the trail (else older records were not read)
     */
    public record History(List<Line> lines, String originId, String replayOf, boolean complete) {
    }

    /**
     * The history of {@code id}, whose record (when it is still parked) names {@code originStream} and
     * {@code originId}; either may be null for an entry that is gone, and is then taken from its replay.
     */
    public Uni<History> of(String dlq, String id, String originStream, String originId) {
        Look look = new Look(id);
        return look.page(dlq, null, config.replay().scanLimit()).map(complete -> {
            String origin = originId != null ? originId : look.originId;
            String stream = originStream != null ? originStream : look.originStream;
            String before = origin == null || stream == null ? null : look.replayedInto.get(stream + " " + origin);
            return new History(look.lines, origin, before, complete);
        });
    }

    /** One look through the trail. */
    private final class Look {
        final String id;
        final List<Line> lines = new ArrayList<>();
        /** "<origin stream> <new id>" of each replay seen -> the dead-letter id it replayed. */
        final Map<String, String> replayedInto = new HashMap<>();
        String originId;
        String originStream;

        Look(String id) {
            this.id = id;
        }

        Uni<Boolean> page(String dlq, String after, int budget) {
            return reader.audit(dlq, Math.min(PAGE, budget), after).flatMap(page -> {
                page.items().forEach(this::read);
                int left = budget - page.items().size();
                if (page.next() == null) {
                    return Uni.createFrom().item(true);
                }
                if (left <= 0) {
                    return Uni.createFrom().item(false);
                }
                return page(dlq, page.next(), left);
            });
        }

        void read(Excerpt record) {
            Map<String, String> fields = new LinkedHashMap<>();
            record.fields().forEach((name, value) -> fields.put(name, new String(value.bytes(), StandardCharsets.UTF_8)));
            String moves = fields.get("moves");
            if (moves != null) {
                for (String move : moves.split("\n")) {
                    String[] parts = move.split(" ", 4); // <dlq-id> <new-id> <origin-id> <origin-stream>
                    if (parts.length == 4) {
                        replayed(parts[3], parts[1], parts[0]);
                        if (parts[0].equals(id)) {
                            Map<String, String> own = new LinkedHashMap<>(fields);
                            own.remove("moves");
                            own.put("dlq-id", id);
                            own.put("new-id", parts[1]);
                            own.put("origin-id", parts[2]);
                            own.put("origin-stream", parts[3]);
                            mine(new Line(record.id(), own));
                        }
                    }
                }
                return;
            }
            if (fields.containsKey("new-id")) {
                replayed(fields.getOrDefault("origin-stream", ""), fields.get("new-id"), fields.getOrDefault("dlq-id", ""));
            }
            if (id.equals(fields.get("dlq-id"))) {
                mine(new Line(record.id(), fields));
            }
        }

        void mine(Line line) {
            lines.add(line);
            if (originId == null && !line.field("origin-id").isEmpty()) {
                originId = line.field("origin-id");
                originStream = line.field("origin-stream");
            }
        }

        void replayed(String stream, String newId, String deadLetterId) {
            if (replayedInto.size() < MAX_REPLAYS_KEPT) {
                replayedInto.put(stream + " " + newId, deadLetterId);
            }
        }
    }
}
