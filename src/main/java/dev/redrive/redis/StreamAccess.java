package dev.redrive.redis;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.redis.datasource.stream.PendingMessage;
import io.quarkus.redis.datasource.stream.ReactiveStreamCommands;
import io.quarkus.redis.datasource.stream.StreamMessage;
import io.quarkus.redis.datasource.stream.StreamRange;
import io.quarkus.redis.datasource.stream.XClaimArgs;
import io.quarkus.redis.datasource.stream.XGroupCreateArgs;
import io.quarkus.redis.datasource.stream.XPendingArgs;
import io.quarkus.redis.datasource.stream.XReadGroupArgs;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Response;

/**
 * The stream commands redrive sends, in one place. Values are {@code byte[]} so payloads travel
 * untouched; field names are text.
 */
@ApplicationScoped
public class StreamAccess {

    /** An entry as read: id, delivery count, fields. */
    public record Entry(String id, int deliveryCount, Map<String, byte[]> fields) {
    }

    /** Group figures for gauges. */
    public record GroupInfo(long pending, long lag, long consumers) {
    }

    @Inject
    ReactiveRedisDataSource redis;

    @Inject
    LuaScripts scripts;

    private ReactiveStreamCommands<String, String, byte[]> streams;

    ReactiveStreamCommands<String, String, byte[]> streams() {
        if (streams == null) {
            streams = redis.stream(String.class, String.class, byte[].class);
        }
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

    public Uni<List<Entry>> readNew(String stream, String group, String consumer, int count, Duration block) {
        return streams().xreadgroup(group, consumer, stream, ">", new XReadGroupArgs().count(count).block(block))
                .map(messages -> {
                    List<Entry> entries = new ArrayList<>(messages.size());
                    for (StreamMessage<String, String, byte[]> m : messages) {
                        entries.add(new Entry(m.id(), 1, m.payload()));
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

    /** The first {@code count} entries of a consumer idle at least {@code minIdle}, from {@code start}. */
    public Uni<List<PendingMessage>> pendingOf(String stream, String group, String consumer, Duration minIdle,
            String start, int count) {
        XPendingArgs args = new XPendingArgs().consumer(consumer);
        if (!minIdle.isZero()) {
            args.idle(minIdle);
        }
        return streams().xpending(stream, group, StreamRange.of(start, "+"), count, args);
    }

    public Uni<Void> rememberNotBefore(String stream, String id, long epochMillis) {
        return redis.hash(String.class, String.class, String.class)
                .hset(RedisKeys.notBefore(stream), id, Long.toString(epochMillis)).replaceWithVoid();
    }

    /** Claims due retries for a worker; see claim-retries.lua. */
    public Uni<List<Entry>> claimRetries(String stream, String group, String retryConsumer, String worker,
            long nowMillis, List<String> ids, List<Entry> missing) {
        List<String> args = new ArrayList<>(4 + ids.size());
        args.add(group);
        args.add(retryConsumer);
        args.add(worker);
        args.add(Long.toString(nowMillis));
        args.addAll(ids);
        return scripts.run(LuaScripts.Script.CLAIM_RETRIES, List.of(stream, RedisKeys.notBefore(stream)), args)
                .map(reply -> {
                    List<Entry> claimed = new ArrayList<>(reply.size());
                    for (Response item : reply) {
                        String id = item.get(0).toString();
                        int count = item.get(1).toInteger();
                        if (item.size() < 3) {
                            missing.add(new Entry(id, count, Map.of()));
                        } else {
                            claimed.add(new Entry(id, count, fields(item.get(2))));
                        }
                    }
                    return claimed;
                });
    }

    /** Runs dead-letter.lua: returns the dead-letter entry id, or null when the entry was no longer pending. */
    public Uni<String> deadLetter(String stream, String group, String deadLetters, String id, String failureKind,
            String fingerprint, String fingerprintText, List<String> recordPairs) {
        return deadLetter(stream, group, deadLetters, id, failureKind, fingerprint, fingerprintText, recordPairs, null);
    }

    /**
     * As above; {@code redriveTask} (a key in the stream's slot, or null) is the bulk redrive that
     * replayed this job, whose failed count the script raises.
     */
    public Uni<String> deadLetter(String stream, String group, String deadLetters, String id, String failureKind,
            String fingerprint, String fingerprintText, List<String> recordPairs, String redriveTask) {
        List<String> args = new ArrayList<>(5 + recordPairs.size());
        args.add(group);
        args.add(id);
        args.add(failureKind);
        args.add(fingerprint);
        args.add(fingerprintText);
        args.addAll(recordPairs);
        List<String> keys = new ArrayList<>(List.of(stream, deadLetters, RedisKeys.deadLetterStats(deadLetters),
                RedisKeys.notBefore(stream)));
        if (redriveTask != null) {
            keys.add(redriveTask);
        }
        return scripts.run(LuaScripts.Script.DEAD_LETTER, keys, args)
                .map(reply -> reply.type() == io.vertx.redis.client.ResponseType.NUMBER ? null : reply.toString());
    }

    /** Id of the oldest entry still pending in the group, or null when none is. */
    public Uni<String> oldestPending(String stream, String group) {
        return streams().xpending(stream, group)
                .map(summary -> summary.getPendingCount() == 0 ? null : summary.getLowestId());
    }

    public Uni<Long> length(String stream) {
        return streams().xlen(stream);
    }

    /** Pending and lag of one group, from XINFO GROUPS (lag needs Redis 7; -1 when unknown). */
    public Uni<GroupInfo> groupInfo(String stream, String group) {
        return redis.execute("XINFO", "GROUPS", stream)
                .map(reply -> {
                    for (Response g : reply) {
                        Map<String, Response> info = asMap(g);
                        Response name = info.get("name");
                        if (name != null && group.equals(name.toString())) {
                            Response lag = info.get("lag");
                            return new GroupInfo(info.get("pending").toLong(), lag == null ? -1 : lag.toLong(),
                                    info.get("consumers").toLong());
                        }
                    }
                    return new GroupInfo(0, -1, 0);
                })
                .onFailure().recoverWithItem(new GroupInfo(0, -1, 0));
    }

    /** A RESP2 reply of name, value pairs (redrive turns protocol negotiation off, see application.properties). */
    public static Map<String, Response> asMap(Response flat) {
        Map<String, Response> map = new LinkedHashMap<>();
        for (int i = 0; i + 1 < flat.size(); i += 2) {
            map.put(flat.get(i).toString(), flat.get(i + 1));
        }
        return map;
    }

    static Map<String, byte[]> fields(Response flat) {
        Map<String, byte[]> fields = new LinkedHashMap<>();
        for (int i = 0; i + 1 < flat.size(); i += 2) {
            fields.put(new String(flat.get(i).toBytes(), StandardCharsets.UTF_8), flat.get(i + 1).toBytes());
        }
        return fields;
    }
}
