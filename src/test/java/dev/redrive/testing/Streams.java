package dev.redrive.testing;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.redrive.deadletter.RecordField;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.redis.datasource.stream.StreamMessage;
import io.quarkus.redis.datasource.stream.StreamRange;
import io.quarkus.redis.datasource.stream.XAddArgs;
import io.quarkus.redis.datasource.stream.StreamCommands;

/** What tests do to and read from streams, through the app's own (test-private) Redis. */
public final class Streams {

    private final RedisDataSource redis;
    private final StreamCommands<String, String, byte[]> streams;

    public Streams(RedisDataSource redis) {
        this.redis = redis;
        this.streams = redis.stream(String.class, String.class, byte[].class);
    }

    public String add(String stream, Map<String, ?> fields) {
        Map<String, byte[]> raw = new LinkedHashMap<>();
        fields.forEach((k, v) -> raw.put(k, v instanceof byte[] b ? b : v.toString().getBytes(StandardCharsets.UTF_8)));
        return streams.xadd(stream, raw);
    }

    /** Adds as a trimming producer does: {@code XADD stream MAXLEN ~ maxLen * ...}. */
    public String addTrimming(String stream, long maxLen, Map<String, String> fields) {
        Map<String, byte[]> raw = new LinkedHashMap<>();
        fields.forEach((k, v) -> raw.put(k, v.getBytes(StandardCharsets.UTF_8)));
        return streams.xadd(stream, new XAddArgs().maxlen(maxLen).nearlyExactTrimming(), raw);
    }

    /** The dead-letter record of an origin entry, if parked (scans: test streams are small). */
    public Optional<StreamMessage<String, String, byte[]>> parked(String dlq, String originId) {
        return streams.xrange(dlq, StreamRange.of("-", "+")).stream()
                .filter(m -> originId.equals(text(m.payload().get(RecordField.ORIGIN_ID.wireName()))))
                .findFirst();
    }

    /**
     * The dead letter of {@code originStream}'s entry {@code originId}: in a dead-letter stream that
     * several queues share, two origins can hold entries of the same id (both added in the same ms).
     */
    public Optional<StreamMessage<String, String, byte[]>> parked(String dlq, String originStream, String originId) {
        return streams.xrange(dlq, StreamRange.of("-", "+")).stream()
                .filter(m -> originId.equals(text(m.payload().get(RecordField.ORIGIN_ID.wireName())))
                        && originStream.equals(text(m.payload().get(RecordField.ORIGIN_STREAM.wireName()))))
                .findFirst();
    }

    public long parkedCount(String dlq, String originId) {
        return streams.xrange(dlq, StreamRange.of("-", "+")).stream()
                .filter(m -> originId.equals(text(m.payload().get(RecordField.ORIGIN_ID.wireName()))))
                .count();
    }

    public List<StreamMessage<String, String, byte[]>> all(String stream) {
        return streams.xrange(stream, StreamRange.of("-", "+"));
    }

    /** Waits until redrive has created the group (it does so at start, asynchronously). */
    public void awaitGroup(String stream, String group) {
        Await.until("group " + group + " on " + stream, () -> {
            try {
                pending(stream, group);
                return true;
            } catch (RuntimeException notYet) {
                return false;
            }
        });
    }

    public long pending(String stream, String group) {
        return streams.xpending(stream, group).getPendingCount();
    }

    public RedisDataSource redis() {
        return redis;
    }

    public StreamCommands<String, String, byte[]> commands() {
        return streams;
    }

    public static String text(byte[] value) {
        return value == null ? null : new String(value, StandardCharsets.UTF_8);
    }
}
