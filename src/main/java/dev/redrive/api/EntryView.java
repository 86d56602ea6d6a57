package dev.redrive.api;

import java.time.Instant;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;

import dev.redrive.deadletter.DeadLetterEntry;
import dev.redrive.job.FieldValues;

/**
 * A dead-letter record as JSON. {@code fields} is the snapshot (values that are not UTF-8 come as
 * {@code {"base64": "..."}}); listings leave it out, so a page never carries megabytes of payload.
 *
 * @param repeatOffender the job had already come back {@code redrive.replay.repeat-offender-after} times or more
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record EntryView(String id, String originStream, String originId, String group, String consumer, String job,
        String failure, String errorType, String reason, String fingerprint, int attempts, int maxAttempts,
        Instant enqueuedAt, Instant lastAttemptAt, Instant deadAt, int replays, boolean repeatOffender,
        boolean snapshotMissing, Map<String, Object> fields) {

    static EntryView of(DeadLetterEntry e, int repeatOffenderAfter, boolean withFields) {
        return new EntryView(e.id(), e.originStream(), e.originId(), e.field("group"), e.field("consumer"), e.job(),
                e.failure(), e.field("error-type"), e.field("reason"), e.fingerprint(), e.attempts(), e.maxAttempts(),
                e.instant("enqueued-at"), e.instant("last-attempt-at"), e.deadAt(), e.replays(),
                e.replays() >= repeatOffenderAfter, e.snapshotMissing(),
                withFields ? FieldValues.toJson(e.snapshot()) : null);
    }
}
