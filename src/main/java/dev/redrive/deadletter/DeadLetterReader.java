package dev.redrive.deadletter;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.redrive.config.RedriveConfig;
import dev.redrive.redis.EntryReads;
import dev.redrive.redis.RedisKeys;
import dev.redrive.redis.StreamInfo;
import io.smallrye.mutiny.Uni;

/**
 * The read side of dead letters ({@link DeadLetterWriter} is the write side): reads dead-letter
 * streams, their counters and their audit trails. Every read is bounded: the
 * summary uses counters and the two ends of the stream, listings examine at most
 * {@code redrive.replay.scan-limit} entries per request and hand back a cursor, and what views
 * receive of an entry is cut in Redis to {@code redrive.reads} limits (a raw value comes in slices).
 */
@ApplicationScoped
public class DeadLetterReader {

    @Inject
    EntryReads reads;

    @Inject
    StreamInfo streams;

    @Inject
    RedriveConfig config;

    @Inject
    ReplayTargets targets;

    @Inject
    Clock clock;

    /** Enough of the two ends of a stream for their dead-at. */
    private static final int SMALL_VALUE = 64;
    private static final int SMALL_ENTRY = 4096;
    private static final int BRIEF_VALUE = 512;

    public List<String> knownStreams() {
        return targets.deadLetterStreams();
    }

    /**
     * Fails with UNKNOWN_STREAM unless redrive parks into this stream. The services own the check:
     * every read below that the API, the console or MCP asks for by a stream's name makes it, and so
     * do Replays, Reveals, RedriveTasks and Proposals; their callers don't repeat it.
     */
    public void requireKnown(String deadLetters) {
        if (!targets.isDeadLetterStream(deadLetters)) {
            throw new DeadLetterException(DeadLetterException.Reason.UNKNOWN_STREAM,
                    "'" + deadLetters + "' is not a dead-letter stream of any configured queue; GET /dlq lists them");
        }
    }

    public Uni<DeadLetterSummary> summary(String deadLetters) {
        requireKnown(deadLetters);
        Uni<Long> depth = streams.length(deadLetters);
        // Only dead-at is wanted of the two ends: a few bytes of each value, however big the payloads.
        Uni<List<Excerpt>> oldest = read(deadLetters, "oldest", "-", "+", 1, SMALL_VALUE, SMALL_ENTRY);
        Uni<List<Excerpt>> newest = read(deadLetters, "newest", "+", "-", 1, SMALL_VALUE, SMALL_ENTRY);
        Uni<Map<String, String>> stats = reads.stats(deadLetters);
        return Uni.combine().all().unis(depth, oldest, newest, stats).asTuple().map(t -> {
            StatsHash counted = new StatsHash(t.getItem4());
            return new DeadLetterSummary(deadLetters, t.getItem1(), deadAt(t.getItem2()), deadAt(t.getItem3()),
                    counted.byOrigin, counted.byFailure, counted.causes(clock), counted.parkedRecently(clock),
                    counted.parkedPerHour(clock));
        });
    }

    /** The summary of every dead-letter stream redrive knows, in the order of {@link #knownStreams()}. */
    public Uni<List<DeadLetterSummary>> summaries() {
        List<Uni<DeadLetterSummary>> summaries = knownStreams().stream().map(this::summary).toList();
        if (summaries.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return Uni.join().all(summaries).andFailFast();
    }

    /** One entry, each value cut to {@code redrive.reads.value-bytes}: what a view may hold of it. */
    public Uni<Optional<Excerpt>> excerpt(String deadLetters, String id) {
        requireKnown(deadLetters);
        return read(deadLetters, "oldest", id, id, 1, config.reads().valueBytes(), config.reads().entryBytes())
                .map(found -> found.stream().findFirst());
    }

    /**
     * One entry with each value cut to a few hundred bytes: enough of a record to name a cause's
     * sample (its reason, error type, job, origin), whatever its payload holds.
     */
    public Uni<Optional<Excerpt>> brief(String deadLetters, String id) {
        requireKnown(deadLetters);
        return read(deadLetters, "oldest", id, id, 1, BRIEF_VALUE, SMALL_ENTRY * 4).map(found -> found.stream().findFirst());
    }

    /**
     * A slice of one field of one entry (the field's name as stored), from byte {@code from}:
     * empty when the entry has no such field; fails with GONE when there is no such entry.
     */
    public Uni<Optional<Slice>> slice(String deadLetters, String id, String field, long from, int max) {
        requireKnown(deadLetters);
        return reads.slice(deadLetters, id, field, from, max).map(reply -> {
            switch (reply.code()) {
                case VALUE -> {
                    return Optional.of(new Slice(reply.number(1), reply.bytes(2)));
                }
                case NO_FIELD -> {
                    return Optional.empty();
                }
                case GONE -> throw new DeadLetterException(DeadLetterException.Reason.GONE, "no entry " + id
                        + " in " + deadLetters + ": it was never parked there, or it was already replayed or discarded");
                default -> throw new IllegalStateException("unexpected script answer " + reply.reply());
            }
        });
    }

    /** Some bytes of a value, and the value's full length. */
    public record Slice(long size, byte[] bytes) {
    }

    /**
     * A page of dead letters matching the filter, newest or oldest first, after the cursor. The
     * filter runs in list.lua, by the same code (lib/filter.lua) that picks what a redrive moves.
     */
    public Uni<Page<Excerpt>> page(String deadLetters, EntryFilter filter, boolean newestFirst, int count,
            String after) {
        requireKnown(deadLetters);
        return reads.list(deadLetters, filter.scriptArgs(), newestFirst, after, count, config.replay().scanLimit(),
                config.reads().valueBytes(), config.reads().entryBytes())
                .map(listed -> new Page<>(Excerpt.all(listed.items()), listed.next(), listed.examined()));
    }

    /**
     * One step of counting what a filter selects, oldest first: the ids of the matches among at
     * most scan-limit entries after the cursor (values cut to nothing, so the reply stays small).
     */
    public Uni<Page<String>> matchPage(String deadLetters, EntryFilter filter, String after) {
        int examine = config.replay().scanLimit();
        return reads.list(deadLetters, filter.scriptArgs(), false, after, examine, examine, 0, config.reads().entryBytes())
                .map(listed -> new Page<>(listed.items().stream().map(e -> e.id()).toList(), listed.next(),
                        listed.examined()));
    }

    /** A page of the audit trail, newest first, each value cut like an entry's. */
    public Uni<Page<Excerpt>> audit(String deadLetters, int count, String after) {
        requireKnown(deadLetters);
        return readPage(RedisKeys.audit(deadLetters), "newest", after == null ? "+" : "(" + after, "-", count,
                config.reads().valueBytes(), config.reads().entryBytes())
                .map(found -> {
                    List<Excerpt> items = Excerpt.all(found.entries());
                    boolean last = items.isEmpty() || (items.size() < count && !found.endedEarly());
                    return new Page<>(items, last ? null : items.get(items.size() - 1).id(), items.size());
                });
    }

    /** Id of the newest entry, or null when the stream is empty. */
    public Uni<String> newestId(String deadLetters) {
        return read(deadLetters, "newest", "+", "-", 1, 0, 0).map(found -> found.isEmpty() ? null : found.get(0).id());
    }

    /** Entries as read-entries.lua cuts them; a page holds entry-bytes at most, whatever {@code count}. */
    private Uni<EntryReads.Read> readPage(String stream, String order, String start, String end, int count,
            int valueBytes, int entryBytes) {
        return reads.read(stream, order, start, end, count, valueBytes, entryBytes, config.reads().entryBytes());
    }

    private Uni<List<Excerpt>> read(String stream, String order, String start, String end, int count, int valueBytes,
            int entryBytes) {
        return readPage(stream, order, start, end, count, valueBytes, entryBytes).map(found -> Excerpt.all(found.entries()));
    }

    private static Instant deadAt(List<Excerpt> one) {
        return one.isEmpty() ? null : one.get(0).record().deadAt();
    }
}
