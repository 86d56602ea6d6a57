package dev.redrive.redis;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.redrive.job.PackedFields;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.redis.datasource.stream.ReactiveStreamCommands;
import io.quarkus.redis.datasource.stream.StreamRange;
import io.quarkus.redis.datasource.stream.XGroupCreateArgs;
import io.quarkus.redis.datasource.stream.XPendingArgs;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.mutiny.redis.client.Response;

/**
 * The commands of a consumer group: create it, read new entries, ack, hand entries to another
 * consumer, page through and claim pending ones. Values are {@code byte[]} so payloads travel
 * untouched; field names are text. Entries read for a worker come with a replay's packed fields
 * unpacked ({@link PackedFields}), so a handler sees the job as the producer wrote it. Figures and
 * single reads are {@link StreamInfo}'s; the dead-letter scripts are {@link DeadLetterScripts}'.
 */
@ApplicationScoped
public class StreamAccess {

    /** An entry as read: id, delivery count, fields. */
    public record Entry(String id, int deliveryCount, Map<String, byte[]> fields) {
    }

    @Inject
    ReactiveRedisDataSource redis;

    @Inject
    LuaScripts scripts;

    private ReactiveStreamCommands<String, String, byte[]> streams;

    @jakarta.annotation.PostConstruct
    void init() {
        streams = redis.stream(String.class, String.class, byte[].class);
    }

    ReactiveStreamCommands<String, String, byte[]> streams() {
        return streams;
    }

    /**
     * Creates the group at the start of the stream (so jobs added before redrive first ran are
     * not skipped), and the stream with it. An existing group is left as it is.
     */
    public Uni<Void> ensureGroup(String stream, String group) {
        return streams().xgroupCreate(stream, group, "0", new XGroupCreateArgs().mkstream())
                .onFailure(e -> e.getMessage() != null && e.getMessage().startsWith("BUSYGROUP"))
                .recoverWithNull();
    }

    /**
     * New entries, without blocking: none when the stream has none ({@link BlockingReader} waits for
     * them). Sent as a plain command and decoded by {@link #readReply}, the blocking read's decoder,
     * so both reads decode an entry one way (the data source's typed XREADGROUP built its own
     * message per entry, then our map from it).
     */
    public Uni<List<Entry>> readNew(String stream, String group, String consumer, int count) {
        Request read = Request.cmd(Command.XREADGROUP).arg("GROUP").arg(group).arg(consumer).arg("COUNT").arg(count)
                .arg("STREAMS").arg(stream).arg(">");
        return redis.getRedis().send(read).map(reply -> {
            List<Entry> entries = readReply(reply).get(stream);
            return entries == null ? List.of() : entries;
        });
    }

    /** Adds entries to a stream, pipelined (the warm-up's jobs). */
    public Uni<Void> add(String stream, List<Map<String, byte[]>> entries) {
        List<Request> adds = new ArrayList<>(entries.size());
        for (Map<String, byte[]> fields : entries) {
            Request add = Request.cmd(Command.XADD).arg(stream).arg("*");
            fields.forEach((name, value) -> add.arg(name).arg(value));
            adds.add(add);
        }
        return redis.getRedis().batch(adds).replaceWithVoid();
    }

    /**
     * Makes {@code hash} exist (one field {@code placeholder}, which no entry id equals) and sets
     * it and {@code stream} to expire after {@code ttl}: a hash a script creates later would have
     * no expiry (the warm-up's not-before hash, left behind by a process killed mid-run).
     */
    public Uni<Void> expireWithHash(String stream, String hash, String placeholder, Duration ttl) {
        long ms = Math.max(1, ttl.toMillis());
        return redis.getRedis().batch(List.of(Request.cmd(Command.HSET).arg(hash).arg(placeholder).arg("1"),
                Request.cmd(Command.PEXPIRE).arg(stream).arg(ms), Request.cmd(Command.PEXPIRE).arg(hash).arg(ms)))
                .replaceWithVoid();
    }

    /** Sets each key to expire after {@code ttl} (PEXPIRE; a missing key is left missing). */
    public Uni<Void> expire(List<String> keys, Duration ttl) {
        List<Request> expiries = new ArrayList<>(keys.size());
        keys.forEach(k -> expiries.add(Request.cmd(Command.PEXPIRE).arg(k).arg(Math.max(1, ttl.toMillis()))));
        return redis.getRedis().batch(expiries).replaceWithVoid();
    }

    public Uni<Integer> ack(String stream, String group, List<String> ids) {
        return streams().xack(stream, group, ids.toArray(String[]::new));
    }

    /** A pending entry as XPENDING reported it: who owned it then, how often it was delivered, how long ago. */
    public record Seen(String id, String owner, int deliveryCount, Duration idle) {
    }

    /**
     * Gives pending entries to another consumer without counting a delivery, and restarts their
     * idle clock (transfer.lua): the heartbeat of running jobs, an immediate retry, the hand-back
     * of a job that never ran. Only entries still in the stream are claimed: a plain XCLAIM would
     * drop a trimmed one from the PEL without a trace.
     *
     * @param deliveryCount the count to set (RETRYCOUNT), or -1 to keep it
     * @return the entries that were trimmed from the stream: not claimed, still pending, to be parked as missing
     */
    public Uni<List<Seen>> transfer(String stream, String group, String toConsumer, List<String> ids, int deliveryCount) {
        return handOver(stream, group, toConsumer, ids, deliveryCount, Map.of());
    }

    /**
     * Hands failed entries to the retry consumer as {@link #transfer} does, noting how long the ones
     * with a provider's Retry-After must wait ({@code waits}: entry id to ms), in the same script,
     * so no claim sees one without its hint. The script adds each wait to Redis' clock, which
     * claim.lua reads it with: this process's clock plays no part.
     *
     * @return the entries that were trimmed from the stream, as {@link #transfer} returns them
     */
    public Uni<List<Seen>> handOver(String stream, String group, String toConsumer, List<String> ids,
            int deliveryCount, Map<String, Long> waits) {
        List<String> args = new ArrayList<>(3 + 2 * ids.size());
        args.add(group);
        args.add(toConsumer);
        args.add(Integer.toString(deliveryCount));
        for (String id : ids) {
            args.add(id);
            args.add(Long.toString(waits.getOrDefault(id, -1L)));
        }
        return scripts.run(LuaScripts.Script.TRANSFER, List.of(stream, RedisKeys.notBefore(stream)), args)
                .map(reply -> {
                    List<Seen> trimmed = new ArrayList<>(reply.size());
                    reply.forEach(item -> trimmed.add(trimmed(item)));
                    return trimmed;
                });
    }

    /** A trimmed entry as claim.lua and transfer.lua answer it: {@code { id, delivery count, owner }}. */
    private static Seen trimmed(Response item) {
        return new Seen(item.get(0).toString(), item.get(2).toString(), item.get(1).toInteger(), Duration.ZERO);
    }

    /**
     * What a claim took: the entries claimed, to run, those trimmed from the stream meanwhile
     * ({@code gone}: not claimed, still pending, to be parked as missing), and those whose
     * Retry-After has not passed on Redis' clock ({@code notYet}: not claimed, each with the ms
     * Redis says it has to go).
     */
    public record Claimed(List<Entry> entries, List<Seen> gone, List<NotYet> notYet) {
    }

    /** An entry a claim left for later: its id, its delivery count, the ms to its not-before on Redis' clock. */
    public record NotYet(String id, int deliveryCount, long waitMillis) {
    }

    /**
     * Claims entries for a worker if each is still owned by whom the caller saw, with the delivery
     * count the caller saw, idle at least {@code minIdle}, and past its Retry-After on Redis' clock;
     * see claim.lua.
     */
    public Uni<Claimed> claim(String stream, String group, String worker, Duration minIdle, List<Seen> seen) {
        List<String> args = new ArrayList<>(3 + 3 * seen.size());
        args.add(group);
        args.add(worker);
        args.add(Long.toString(minIdle.toMillis()));
        for (Seen s : seen) {
            args.add(s.id());
            args.add(s.owner());
            args.add(Integer.toString(s.deliveryCount()));
        }
        return scripts.run(LuaScripts.Script.CLAIM, List.of(stream, RedisKeys.notBefore(stream)), args)
                .map(reply -> {
                    List<Entry> claimed = new ArrayList<>(reply.size());
                    List<Seen> gone = new ArrayList<>();
                    List<NotYet> notYet = new ArrayList<>();
                    for (Response item : reply) {
                        String id = item.get(0).toString();
                        int count = item.get(1).toInteger();
                        switch (item.get(2).type()) {
                            case MULTI -> claimed.add(new Entry(id, count, PackedFields.expand(fields(item.get(2).getDelegate()))));
                            case NUMBER -> notYet.add(new NotYet(id, count, item.get(2).toLong()));
                            default -> gone.add(trimmed(item));
                        }
                    }
                    return new Claimed(claimed, gone, notYet);
                });
    }

    /** Deletes consumers idle at least {@code minIdle} that own nothing; see forget-consumers.lua. */
    public Uni<List<String>> forgetConsumers(String stream, String group, Duration minIdle, List<String> keep) {
        List<String> args = new ArrayList<>(2 + keep.size());
        args.add(group);
        args.add(Long.toString(minIdle.toMillis()));
        args.addAll(keep);
        return scripts.run(LuaScripts.Script.FORGET_CONSUMERS, List.of(stream), args)
                .map(reply -> {
                    List<String> names = new ArrayList<>(reply.size());
                    reply.forEach(r -> names.add(r.toString()));
                    return names;
                });
    }

    /**
     * Pending entries idle at least {@code minIdle}: a bounded page from {@code start}, of one
     * consumer or (when {@code consumer} is null) of the whole group.
     */
    public Uni<List<Seen>> pending(String stream, String group, String consumer, Duration minIdle, String start, int count) {
        XPendingArgs args = new XPendingArgs();
        if (consumer != null) {
            args.consumer(consumer);
        }
        if (!minIdle.isZero()) {
            args.idle(minIdle);
        }
        return streams().xpending(stream, group, StreamRange.of(start, "+"), count, args)
                .map(list -> list.stream().map(p -> new Seen(p.getMessageId(), p.getConsumer(), p.getDeliveryCount(),
                        p.getDurationSinceLastDelivery())).toList());
    }

    /**
     * An XREADGROUP reply (RESP2): per stream, its entries; nothing when the read timed out or was
     * woken. Read through the client's own reply rather than Mutiny's wrapper, which allocates a
     * wrapper for every element it hands out (several per entry, on the worker's event loop).
     */
    static Map<String, List<Entry>> readReply(Response reply) {
        Map<String, List<Entry>> byStream = new HashMap<>();
        if (reply == null) {
            return byStream;
        }
        for (io.vertx.redis.client.Response stream : reply.getDelegate()) {
            io.vertx.redis.client.Response read = stream.get(1);
            List<Entry> entries = new ArrayList<>(read.size());
            for (io.vertx.redis.client.Response entry : read) {
                entries.add(new Entry(entry.get(0).toString(), 1, PackedFields.expand(fields(entry.get(1)))));
            }
            byStream.put(stream.get(0).toString(), entries);
        }
        return byStream;
    }

    static Map<String, byte[]> fields(io.vertx.redis.client.Response flat) {
        Map<String, byte[]> fields = new LinkedHashMap<>();
        int size = flat.size();
        for (int i = 0; i + 1 < size; i += 2) {
            fields.put(new String(flat.get(i).toBytes(), StandardCharsets.UTF_8), flat.get(i + 1).toBytes());
        }
        return fields;
    }
}
