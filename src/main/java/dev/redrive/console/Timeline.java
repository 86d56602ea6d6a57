package dev.redrive.console;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import dev.redrive.deadletter.DeadLetterEntry;
import dev.redrive.deadletter.EntryHistory;
import dev.redrive.deadletter.Excerpt;
import dev.redrive.deadletter.RecordField;
import dev.redrive.job.ReservedField;

/**
 * The life of one dead letter in time order: added to its stream (as a replay of an earlier dead
 * letter, linked, when it was one), its last attempt, parked, and what the audit trail says was
 * done with it since (replayed, discarded, revealed, moved by a redrive).
 */
final class Timeline {

    /** One moment; {@code link} and {@code linkText} are set when it points at another dead letter. */
    public record Event(Instant at, String what, String detail, String link, String linkText) {
    }

    private Timeline() {
    }

    static List<Event> of(String dlq, String id, Excerpt entry, EntryHistory.History history) {
        List<Event> events = new ArrayList<>();
        String[] from = replayOf(dlq, entry, history);
        if (entry != null) {
            DeadLetterEntry e = entry.record();
            events.add(new Event(e.instant(RecordField.ENQUEUED_AT), "enqueued",
                    "added to " + e.originStream() + " as " + e.originId() + (from != null ? ", a replay of" : ""),
                    from == null ? null : ConsoleUrls.entry(from[0], from[1]), from == null ? null : from[1]));
            Instant last = e.instant(RecordField.LAST_ATTEMPT_AT);
            if (last != null) {
                events.add(new Event(last, "last attempt", "attempt " + e.attempts() + " of " + e.maxAttempts()
                        + " started by " + e.field(RecordField.CONSUMER), null, null));
            }
            events.add(new Event(e.deadAt(), "parked", e.failure() + ": " + e.field(RecordField.ERROR_TYPE)
                    + (e.replays() > 0 ? " (replayed " + e.replays() + " times before)" : ""), null, null));
        } else if (from != null) {
            events.add(new Event(null, "enqueued", "a replay of", ConsoleUrls.entry(from[0], from[1]), from[1]));
        }
        for (EntryHistory.Line line : history.lines()) {
            events.add(event(line));
        }
        events.sort(Comparator.comparing(Event::at, Comparator.nullsFirst(Comparator.naturalOrder())));
        return events;
    }

    /** {dlq, id} of the dead letter this one's job was replayed from, or null. */
    static String[] replayOf(String dlq, Excerpt entry, EntryHistory.History history) {
        if (entry != null) {
            Excerpt.Value v = entry.snapshot().get(ReservedField.REPLAY_OF.wireName());
            if (v != null && !v.truncated()) {
                String text = new String(v.bytes(), StandardCharsets.UTF_8);
                int slash = text.lastIndexOf('/');
                if (slash > 0) {
                    return new String[] { text.substring(0, slash), text.substring(slash + 1) };
                }
            }
        }
        return history.replayOf() == null ? null : new String[] { dlq, history.replayOf() };
    }

    private static Event event(EntryHistory.Line line) {
        String action = line.field("action");
        String by = " by " + line.field("actor");
        String detail = switch (action) {
            case "replay" -> "replayed" + by + " to " + line.field("origin-stream") + " as " + line.field("new-id")
                    + (line.field("patched").isEmpty() ? "" : ", patched " + line.field("patched"));
            case "redrive-moves" -> "moved to " + line.field("origin-stream") + " as " + line.field("new-id")
                    + " by redrive " + line.field("task") + " (started" + by + ")";
            case "discard" -> "discarded" + by;
            case "reveal" -> "revealed " + line.field("fields") + by;
            default -> action + by;
        };
        String note = line.field("note");
        return new Event(instant(line.field("at")), action, note.isEmpty() ? detail : detail + ": " + note, null, null);
    }

    private static Instant instant(String text) {
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
