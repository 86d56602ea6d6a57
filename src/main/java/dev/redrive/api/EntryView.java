package dev.redrive.api;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;

import dev.redrive.deadletter.DeadLetterEntry;
import dev.redrive.deadletter.Excerpt;
import dev.redrive.deadletter.RecordField;

/**
 * A dead-letter record as JSON. {@code fields} is the snapshot (values that are not UTF-8 come as
 * {@code {"base64": "..."}}, values over {@code redrive.reads.value-bytes} as
 * {@code {"truncated": true, "size": ..., "text" or "base64": ...}}, see {@link ValueJson}; masked
 * fields as {@link RedactedFields#MASKED} unless an operator revealed them); listings leave it out,
 * so a page never carries megabytes of payload.
 *
 * @param lastAttemptTrace the W3C traceparent of the last attempt's span (its trace id is the second
 *        part); null when the attempt was not traced
 * @param repeatOffender the job had already come back {@code redrive.replay.repeat-offender-after} times or more
 * @param truncated names of the record's own fields shown cut short (null when none was)
 * @param fieldsLeftOut fields past {@code redrive.reads.entry-bytes} that the view leaves out (null when none)
 * @param snapshotPacked the record says the snapshot is stored packed ({@code snapshot=packed}); its fields are
 *        shown like any snapshot's, unpacked in Redis before they are cut (null when not packed)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record EntryView(String id, String originStream, String originId, String group, String consumer, String job,
        String failure, String errorType, String reason, String fingerprint, int attempts, int maxAttempts,
        Instant enqueuedAt, Instant lastAttemptAt, String lastAttemptTrace, Instant deadAt, int replays, boolean repeatOffender,
        boolean snapshotMissing, Boolean snapshotPacked, List<String> truncated, Integer fieldsLeftOut,
        Map<String, Object> fields) {

    /** @param fields the snapshot as shown ({@link RedactedFields}), or null to leave it out (listings) */
    static EntryView of(Excerpt excerpt, int repeatOffenderAfter, Map<String, Object> fields) {
        DeadLetterEntry e = excerpt.record();
        List<String> cut = excerpt.truncatedRecordFields();
        boolean packed = e.snapshotPacked();
        return new EntryView(e.id(), e.originStream(), e.originId(), e.field(RecordField.GROUP),
                e.field(RecordField.CONSUMER), e.job(), e.failure(), e.field(RecordField.ERROR_TYPE),
                e.field(RecordField.REASON), e.fingerprint(), e.attempts(), e.maxAttempts(),
                e.instant(RecordField.ENQUEUED_AT), e.instant(RecordField.LAST_ATTEMPT_AT), trace(e), e.deadAt(), e.replays(),
                e.replays() >= repeatOffenderAfter, e.snapshotMissing(), packed ? Boolean.TRUE : null,
                cut.isEmpty() ? null : cut, excerpt.fieldsLeftOut() == 0 ? null : excerpt.fieldsLeftOut(),
                fields);
    }

    private static String trace(DeadLetterEntry e) {
        String trace = e.field(RecordField.LAST_ATTEMPT_TRACE);
        return trace.isEmpty() ? null : trace;
    }
}
