package dev.redrive.redis;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.redrive.job.PackedFields;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.redis.datasource.stream.ReactiveStreamCommands;
import io.quarkus.redis.datasource.stream.StreamMessage;
import io.quarkus.redis.datasource.stream.StreamRange;
import io.quarkus.redis.datasource.stream.XClaimArgs;
import io.quarkus.redis.datasource.stream.XGroupCreateArgs;
import io.quarkus.redis.datasource.stream.XPendingArgs;
import io.quarkus.redis.datasource.stream.XReadGroupArgs;
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

    /** New entries, without blocking: none when the stream has none ({@link BlockingReader} waits for them). */
    public Uni<List<Entry>> readNew(String stream, String group, String consumer, int count) {
        return streams().xreadgroup(group, consumer, stream, ">", new XReadGroupArgs().count(count))
                .map(messages -> {
                    List<Entry> entries = new ArrayList<>(messages.size());
                    for (StreamMessage<String, String, byte[]> m : messages) {
                        entries.add(new Entry(m.id(), 1, PackedFields.expand(m.payload())));
                    }
                    return entries;
                });
    }

    public Uni<Integer> ack(String stream, String group, List<String> ids) {
        return streams().xack(stream, group, ids.toArray(String[]::new));
    }

    /**
     * Gives pending entries to another consumer without counting a delivery (XCLAIM JUSTID), and
     * restarts their idle clock: used to park a failed entry under the retry consumer, and as
     * the heartbeat of a long-running job.
     *
     * @param deliveryCount the count to set (RETRYCOUNT), or -1 to keep it
     */
    public Uni<Void> transfer(String stream, String group, String toConsumer, List<String> ids, int deliveryCount) {
        XClaimArgs args = new XClaimArgs().justId();
        if (deliveryCount >= 0) {
            args.retryCount(deliveryCount);
        }
        return streams().xclaim(stream, group, toConsumer, Duration.ZERO, args, ids.toArray(String[]::new))
                .replaceWithVoid();
    }

    /**
     * Hands failed entries to the retry consumer as {@link #transfer} does, first noting when the
     * ones with a provider's Retry-After may run again ({@code notBefore}: entry id to epoch ms;
     * claim.lua holds them until then). Both commands go out in one batch, on one connection and in
     * this order, so no claim can see an entry under the retry consumer before its hint, and a hint
     * costs no round trip of its own.
     */
    public Uni<Void> handOver(String stream, String group, String toConsumer, List<String> ids,
            Map<String, Long> notBefore) {
        if (notBefore.isEmpty()) {
            return transfer(stream, group, toConsumer, ids, -1);
        }
        Request hints = Request.cmd(Command.HSET).arg(RedisKeys.notBefore(stream));
        notBefore.forEach((id, at) -> hints.arg(id).arg(at));
        Request claim = Request.cmd(Command.XCLAIM).arg(stream).arg(group).arg(toConsumer).arg(0);
        ids.forEach(claim::arg);
        claim.arg("JUSTID");
        return redis.getRedis().batch(List.of(hints, claim)).replaceWithVoid();
    }

    /** A pending entry as XPENDING reported it: who owned it then, how often it was delivered, how long ago. */
    public record Seen(String id, String owner, int deliveryCount, Duration idle) {
    }

    /**
     * Claims entries for a worker if each is still owned by whom the caller saw, with the delivery
     * count the caller saw, idle at least {@code minIdle}; see claim.lua. Trimmed entries go to {@code missing}, still pending.
     */
    public Uni<List<Entry>> claim(String stream, String group, String worker, long nowMillis, Duration minIdle,
            List<Seen> seen, List<Seen> missing) {
        List<String> args = new ArrayList<>(4 + 3 * seen.size());
        args.add(group);
        args.add(worker);
        args.add(Long.toString(nowMillis));
        args.add(Long.toString(minIdle.toMillis()));
        for (Seen s : seen) {
            args.add(s.id());
            args.add(s.owner());
            args.add(Integer.toString(s.deliveryCount()));
        }
        return scripts.run(LuaScripts.Script.CLAIM, List.of(stream, RedisKeys.notBefore(stream)), args)
                .map(reply -> {
                    List<Entry> claimed = new ArrayList<>(reply.size());
                    for (Response item : reply) {
                        String id = item.get(0).toString();
                        int count = item.get(1).toInteger();
                        if (item.get(2).type() == io.vertx.redis.client.ResponseType.MULTI) {
                            claimed.add(new Entry(id, count, PackedFields.expand(fields(item.get(2)))));
                        } else {
                            missing.add(new Seen(id, item.get(2).toString(), count, Duration.ZERO));
                        }
                    }
                    return claimed;
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

    static Map<String, byte[]> fields(Response flat) {
        Map<String, byte[]> fields = new LinkedHashMap<>();
        for (int i = 0; i + 1 < flat.size(); i += 2) {
            fields.put(new String(flat.get(i).toBytes(), StandardCharsets.UTF_8), flat.get(i + 1).toBytes());
        }
        return fields;
    }
}
