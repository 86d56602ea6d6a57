package dev.redrive.job;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Collections;
import java.util.Map;
import java.util.Optional;

/**
 * One delivery of a stream entry to a handler. {@code attempt} is the entry's delivery count in
 * the group's pending entries list, so it is the same number on every replica and after a restart.
 *
 * @param fields the entry's fields exactly as the producer wrote them (values are raw bytes)
 */
public record Job(String queue, String stream, String id, int attempt, int maxAttempts, Map<String, byte[]> fields) {

    public static final String PAYLOAD = "payload";
    public static final String CONTENT_TYPE = "content-type";
    public static final String NAME = "job";
    public static final String IDEMPOTENCY_KEY = "idempotency-key";
    public static final String TRACEPARENT = "traceparent";

    public Job {
        fields = Collections.unmodifiableMap(fields);
    }

    /** {@code <stream>/<entry id>}: unique, and what operators and logs use. */
    public String jobId() {
        return stream + "/" + id;
    }

    /** The entry's {@code job} field, else the queue's name. */
    public String name() {
        return text(NAME).orElse(queue);
    }

    /**
     * The key a handler deduplicates on: the entry's {@code idempotency-key} field, else the job id.
     * A replay carries the original key forward, so it is stable across retries and replays.
     */
    public String idempotencyKey() {
        return text(IDEMPOTENCY_KEY).orElseGet(this::jobId);
    }

    public Optional<byte[]> bytes(String field) {
        return Optional.ofNullable(fields.get(field));
    }

    /** A field decoded as UTF-8 (malformed bytes become U+FFFD; use {@link #bytes} for binary fields). */
    public Optional<String> text(String field) {
        byte[] value = fields.get(field);
        return value == null ? Optional.empty() : Optional.of(new String(value, StandardCharsets.UTF_8));
    }

    /** When the producer added the entry: the millisecond part of its id. */
    public Instant enqueuedAt() {
        return EntryIds.timestamp(id);
    }
}
