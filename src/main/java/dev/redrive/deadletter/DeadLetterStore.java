package dev.redrive.deadletter;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.redrive.config.RedriveConfig;
import dev.redrive.redis.LuaScripts;
import dev.redrive.redis.RedisKeys;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.redis.datasource.stream.ReactiveStreamCommands;
import io.quarkus.redis.datasource.stream.StreamMessage;
import io.quarkus.redis.datasource.stream.StreamRange;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Response;

/**
 * Reads dead-letter streams, their counters and their audit trails. Every read is bounded: the
 * summary uses counters and the two ends of the stream, listings examine at most
 * {@code redrive.replay.scan-limit} entries per request and hand back a cursor.
 */
@ApplicationScoped
public class DeadLetterStore {

    @Inject
    ReactiveRedisDataSource redis;

    @Inject
    RedriveConfig config;

    @Inject
    ReplayTargets targets;

    @Inject
    LuaScripts scripts;

    private ReactiveStreamCommands<String, String, byte[]> streams;

    private ReactiveStreamCommands<String, String, byte[]> streams() {
        if (streams == null) {
            streams = redis.stream(String.class, String.class, byte[].class);
        }
        return streams;
    }

    public List<String> knownStreams() {
        return targets.deadLetterStreams();
    }

    /** Fails with UNKNOWN_STREAM unless redrive parks into this stream. */
    public void requireKnown(String deadLetters) {
        if (!targets.isDeadLetterStream(deadLetters)) {
            throw new DeadLetterException(DeadLetterException.Reason.UNKNOWN_STREAM,
                    "'" + deadLetters + "' is not a dead-letter stream of any configured queue; GET /dlq lists them");
        }
    }

    public Uni<DeadLetterSummary> summary(String deadLetters) {
        Uni<Long> depth = streams().xlen(deadLetters);
        Uni<List<StreamMessage<String, String, byte[]>>> oldest = streams().xrange(deadLetters, StreamRange.of("-", "+"), 1);
        Uni<List<StreamMessage<String, String, byte[]>>> newest = streams().xrevrange(deadLetters, StreamRange.of("+", "-"), 1);
        Uni<Map<String, String>> stats = redis.hash(String.class, String.class, String.class)
                .hgetall(RedisKeys.deadLetterStats(deadLetters));
        return Uni.combine().all().unis(depth, oldest, newest, stats).asTuple().map(t -> {
            Map<String, Long> byOrigin = new TreeMap<>();
            Map<String, Long> byFailure = new TreeMap<>();
            Map<String, Long> byFingerprint = new TreeMap<>();
            Map<String, String> texts = new TreeMap<>();
            t.getItem4().forEach((field, value) -> {
                if (field.startsWith("origin:")) {
                    byOrigin.put(field.substring(7), parse(value));
                } else if (field.startsWith("failure:")) {
                    byFailure.put(field.substring(8), parse(value));
                } else if (field.startsWith("fingerprint-text:")) {
                    texts.put(field.substring(17), value);
                } else if (field.startsWith("fingerprint:")) {
                    byFingerprint.put(field.substring(12), parse(value));
                }
            });
            List<DeadLetterSummary.Cause> causes = new ArrayList<>();
            byFingerprint.forEach((fp, n) -> causes.add(new DeadLetterSummary.Cause(fp, texts.getOrDefault(fp, ""), n)));
            causes.sort(Comparator.comparingLong(DeadLetterSummary.Cause::count).reversed());
            return new DeadLetterSummary(deadLetters, t.getItem1(), deadAt(t.getItem2()), deadAt(t.getItem3()),
                    byOrigin, byFailure, causes);
        });
    }

    public Uni<Optional<DeadLetterEntry>> entry(String deadLetters, String id) {
        return streams().xrange(deadLetters, StreamRange.of(id, id), 1)
                .map(found -> found.isEmpty() ? Optional.empty()
                        : Optional.of(DeadLetterEntry.of(found.get(0).id(), found.get(0).payload())));
    }

    /**
     * A page of dead letters matching the filter, newest or oldest first, after the cursor. The
     * filter runs in replay.lua, the same code that picks what a redrive moves.
     */
    public Uni<Page<DeadLetterEntry>> page(String deadLetters, EntryFilter filter, boolean newestFirst, int count,
            String after) {
        List<String> args = new ArrayList<>();
        args.add("list");
        args.addAll(filter.scriptArgs());
        args.addAll(List.of(newestFirst ? "newest" : "oldest", after == null ? "" : after, Integer.toString(count),
                Integer.toString(config.replay().scanLimit())));
        return scripts.run(LuaScripts.Script.REPLAY, List.of(deadLetters), args).map(reply -> {
            List<DeadLetterEntry> items = new ArrayList<>(reply.size() - 2);
            for (int i = 2; i < reply.size(); i++) {
                items.add(entryOf(reply.get(i)));
            }
            String next = reply.get(0).toString();
            return new Page<>(items, next.isEmpty() ? null : next, reply.get(1).toInteger());
        });
    }

    /** An entry as a script returns it: { id, { name, value, ... } }. */
    private static DeadLetterEntry entryOf(Response entry) {
        Response flat = entry.get(1);
        Map<String, byte[]> fields = new LinkedHashMap<>();
        for (int i = 0; i + 1 < flat.size(); i += 2) {
            fields.put(flat.get(i).toString(), flat.get(i + 1).toBytes());
        }
        return DeadLetterEntry.of(entry.get(0).toString(), fields);
    }

    /** A page of the audit trail, newest first. */
    public Uni<Page<StreamMessage<String, String, byte[]>>> audit(String deadLetters, int count, String after) {
        return streams().xrevrange(RedisKeys.audit(deadLetters), StreamRange.of(after == null ? "+" : "(" + after, "-"), count)
                .map(found -> new Page<>(found, found.size() < count ? null : found.get(found.size() - 1).id(),
                        found.size()));
    }

    /** Id of the newest entry, or null when the stream is empty. */
    public Uni<String> newestId(String deadLetters) {
        return streams().xrevrange(deadLetters, StreamRange.of("+", "-"), 1)
                .map(found -> found.isEmpty() ? null : found.get(0).id());
    }

    private static java.time.Instant deadAt(List<StreamMessage<String, String, byte[]>> one) {
        return one.isEmpty() ? null : DeadLetterEntry.of(one.get(0).id(), one.get(0).payload()).deadAt();
    }

    private static long parse(String value) {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
