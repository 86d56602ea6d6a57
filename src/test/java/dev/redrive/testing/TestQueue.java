package dev.redrive.testing;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.redrive.deadletter.RecordField;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.redis.datasource.stream.StreamMessage;

/**
 * The streams of one queue a test class owns (each class its own, so classes share a boot and
 * never count each other's jobs): jobs added to it, its pending entries, what it parked. Injected
 * with {@code @Inject @Own("name")}; {@link #assertDrained()} in an {@code @AfterEach} checks
 * that nothing was left pending.
 */
public final class TestQueue {

    private final Streams streams;
    private final String stream;
    private final String group;
    private final String dlq;

    TestQueue(Streams streams, String stream, String group, String dlq) {
        this.streams = streams;
        this.stream = stream;
        this.group = group;
        this.dlq = dlq;
    }

    public String stream() {
        return stream;
    }

    public String group() {
        return group;
    }

    /** The dead-letter stream the queue parks into. */
    public String dlq() {
        return dlq;
    }

    /** The dead-letter stream's path in the operator API, {@code /dlq/<encoded name>}. */
    public String dlqPath() {
        return Api.dlq(dlq);
    }

    public Streams streams() {
        return streams;
    }

    public RedisDataSource redis() {
        return streams.redis();
    }

    /** Adds a job; returns its entry id. */
    public String add(Map<String, ?> fields) {
        return streams.add(stream, fields);
    }

    /** The job id a handler sees for entry {@code id} of this queue: {@code <stream>/<id>}. */
    public String jobId(String id) {
        return stream + "/" + id;
    }

    /** Entries pending in the queue's group. */
    public long pending() {
        return streams.pending(stream, group);
    }

    /** The dead letter of this queue's entry {@code originId}, if parked. */
    public Optional<StreamMessage<String, String, byte[]>> parked(String originId) {
        return streams.parked(dlq, originId);
    }

    public long parkedCount(String originId) {
        return streams.parkedCount(dlq, originId);
    }

    /** Waits until entry {@code originId} is parked; returns its dead-letter id. */
    public String awaitParked(String originId) {
        return Await.value("job " + originId + " to be parked", () -> parked(originId).map(StreamMessage::id).orElse(null));
    }

    /**
     * Adds a job that fails terminally (the scripted handler's {@code kind=terminal}, unless the
     * fields name another kind) and waits until it is parked; returns its dead-letter id.
     */
    public String parkedJob(Map<String, ?> fields) {
        Map<String, Object> all = new java.util.HashMap<>(fields);
        all.putIfAbsent("kind", "terminal");
        return awaitParked(add(all));
    }

    /** The origin entry id of dead letter {@code dlqId}. */
    public String originOf(String dlqId) {
        return deadLetters().stream().filter(m -> m.id().equals(dlqId)).findFirst()
                .map(m -> Streams.text(m.payload().get(RecordField.ORIGIN_ID.wireName()))).orElseThrow();
    }

    /** Every entry of the queue's stream. */
    public List<StreamMessage<String, String, byte[]>> entries() {
        return streams.all(stream);
    }

    /** Every entry of its dead-letter stream. */
    public List<StreamMessage<String, String, byte[]>> deadLetters() {
        return streams.all(dlq);
    }

    public void awaitGroup() {
        streams.awaitGroup(stream, group);
    }

    /** Waits until nothing is pending in the queue's group: every job done or parked. */
    public void assertDrained() {
        Await.until("the PEL of " + stream + " to be empty", () -> pending() == 0);
    }
}
