package dev.redrive.deadletter;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Predicate;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.redrive.config.RedriveConfig;
import dev.redrive.redis.RedisKeys;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.redis.datasource.stream.ReactiveStreamCommands;
import io.quarkus.redis.datasource.stream.StreamMessage;
import io.quarkus.redis.datasource.stream.StreamRange;
import io.smallrye.mutiny.Uni;

/**
 * Reads dead-letter streams, their counters and their audit trails. Every read is bounded: the
 * summary uses counters and the two ends of the stream, listings examine at most
 * {@code redrive.replay.scan-limit} entries per request and hand back a cursor.
 */
@ApplicationScoped
public class DeadLetterStore {

    /** Entries fetched per round trip while a listing scans. */
    private static final int CHUNK = 100;

    @Inject
    ReactiveRedisDataSource redis;

    @Inject
    RedriveConfig config;

    @Inject
    ReplayTargets targets;

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

    /** A page of dead letters matching the filter, newest or oldest first, after the cursor. */
    public Uni<Page<DeadLetterEntry>> page(String deadLetters, EntryFilter filter, boolean newestFirst, int count,
            String after) {
        return scan(deadLetters, newestFirst, after, count, config.replay().scanLimit(),
                m -> DeadLetterEntry.of(m.id(), m.payload()), filter::matches);
    }

    /** A page of the audit trail, newest first. */
    public Uni<Page<StreamMessage<String, String, byte[]>>> audit(String deadLetters, int count, String after) {
        return scan(RedisKeys.audit(deadLetters), true, after, count, config.replay().scanLimit(), m -> m, m -> true);
    }

    /**
     * Entries from the cursor (exclusive) towards the end, oldest first, up to and including
     * {@code until}: what a redrive works through.
     */
    public Uni<List<DeadLetterEntry>> chunk(String deadLetters, String after, String until, int count) {
        String from = after == null ? "-" : "(" + after;
        return streams().xrange(deadLetters, StreamRange.of(from, until), count)
                .map(found -> found.stream().map(m -> DeadLetterEntry.of(m.id(), m.payload())).toList());
    }

    /** Id of the newest entry, or null when the stream is empty. */
    public Uni<String> newestId(String deadLetters) {
        return streams().xrevrange(deadLetters, StreamRange.of("+", "-"), 1)
                .map(found -> found.isEmpty() ? null : found.get(0).id());
    }

    private <T> Uni<Page<T>> scan(String key, boolean newestFirst, String after, int count, int budget,
            Function<StreamMessage<String, String, byte[]>, T> convert, Predicate<T> keep) {
        return scanFrom(key, newestFirst, after, count, budget, convert, keep, new ArrayList<>(), 0);
    }

    private <T> Uni<Page<T>> scanFrom(String key, boolean newestFirst, String after, int count, int budget,
            Function<StreamMessage<String, String, byte[]>, T> convert, Predicate<T> keep, List<T> items, int examined) {
        int ask = Math.min(CHUNK, budget - examined);
        Uni<List<StreamMessage<String, String, byte[]>>> read = newestFirst
                ? streams().xrevrange(key, StreamRange.of(after == null ? "+" : "(" + after, "-"), ask)
                : streams().xrange(key, StreamRange.of(after == null ? "-" : "(" + after, "+"), ask);
        return read.flatMap(found -> {
            int seen = examined;
            String last = after;
            for (StreamMessage<String, String, byte[]> m : found) {
                seen++;
                last = m.id();
                T item = convert.apply(m);
                if (keep.test(item)) {
                    items.add(item);
                    if (items.size() == count) {
                        return Uni.createFrom().item(new Page<>(items, last, seen));
                    }
                }
            }
            if (found.size() < ask) {
                return Uni.createFrom().item(new Page<>(items, null, seen));
            }
            if (seen >= budget) {
                return Uni.createFrom().item(new Page<>(items, last, seen));
            }
            return scanFrom(key, newestFirst, last, count, budget, convert, keep, items, seen);
        });
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
