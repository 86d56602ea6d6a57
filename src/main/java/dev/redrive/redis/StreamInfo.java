package dev.redrive.redis;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.redis.datasource.stream.ReactiveStreamCommands;
import io.quarkus.redis.datasource.stream.StreamRange;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Response;

/**
 * What redrive looks up about a stream without taking part in its group: figures for gauges, one
 * entry's fields, a key's type, how far a group has got (a redrive's canary waits on it). None of
 * these reads changes what a consumer sees.
 */
@ApplicationScoped
public class StreamInfo {

    /** Group figures for gauges. */
    public record GroupInfo(long pending, long lag, long consumers) {
    }

    private static final GroupInfo UNKNOWN = new GroupInfo(0, -1, 0);

    /** A queue whose figures are wanted: its stream, group and dead-letter stream. */
    public record QueueKeys(String stream, String group, String deadLetters) {
    }

    /**
     * A queue's figures: dead letters, group figures, and its pending summary (the oldest pending
     * id or null, the entries pending under each consumer that has any).
     */
    public record Figures(long depth, GroupInfo group, String oldestPending, Map<String, Long> pendingByConsumer) {
    }

    /** Queues whose figures one figures.lua call reads: about a millisecond of Redis each. */
    static final int FIGURES_PER_CALL = 100;

    @Inject
    LuaScripts scripts;

    @Inject
    RedisTopology topology;

    @Inject
    ReactiveRedisDataSource redis;

    private ReactiveStreamCommands<String, String, byte[]> streams;

    @jakarta.annotation.PostConstruct
    void init() {
        streams = redis.stream(String.class, String.class, byte[].class);
    }

    /**
     * The figures of many queues in one figures.lua call per hash slot and {@link #FIGURES_PER_CALL}
     * queues (one call on a single Redis with up to 100 queues), in the order asked.
     */
    public Uni<List<Figures>> figures(List<QueueKeys> queues) {
        Map<Integer, List<Integer>> bySlot = new LinkedHashMap<>();
        for (int i = 0; i < queues.size(); i++) {
            bySlot.computeIfAbsent(topology.cluster() ? HashSlot.of(queues.get(i).stream()) : 0, s -> new ArrayList<>())
                    .add(i);
        }
        List<Uni<Void>> calls = new ArrayList<>();
        Figures[] out = new Figures[queues.size()];
        List<List<Integer>> slices = new ArrayList<>();
        // A slice of queues per call: one call for a thousand queues would hold Redis for tens of ms.
        for (List<Integer> inSlot : bySlot.values()) {
            for (int from = 0; from < inSlot.size(); from += FIGURES_PER_CALL) {
                slices.add(inSlot.subList(from, Math.min(inSlot.size(), from + FIGURES_PER_CALL)));
            }
        }
        for (List<Integer> slot : slices) {
            List<String> keys = new ArrayList<>(2 * slot.size());
            List<String> groups = new ArrayList<>(slot.size());
            for (int i : slot) {
                keys.add(queues.get(i).stream());
                keys.add(queues.get(i).deadLetters());
                groups.add(queues.get(i).group());
            }
            calls.add(scripts.run(LuaScripts.Script.FIGURES, keys, groups).invoke(reply -> {
                for (int j = 0; j < slot.size(); j++) {
                    out[slot.get(j)] = figures(reply.get(j));
                }
            }).replaceWithVoid());
        }
        if (calls.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return Uni.join().all(calls).andFailFast().map(done -> Arrays.asList(out));
    }

    private static Figures figures(Response r) {
        Map<String, Long> owners = new LinkedHashMap<>();
        Response flat = r.get(5);
        for (int i = 0; i + 1 < flat.size(); i += 2) {
            owners.put(flat.get(i).toString(), flat.get(i + 1).toLong());
        }
        String oldest = r.get(4).toString();
        return new Figures(r.get(0).toLong(), new GroupInfo(r.get(3).toLong(), r.get(1).toLong(), r.get(2).toLong()),
                oldest.isEmpty() ? null : oldest, owners);
    }

    /** An entry's fields, or an empty map when it is gone (trimmed or deleted). */
    public Uni<Map<String, byte[]>> fields(String stream, String id) {
        return streams.xrange(stream, StreamRange.of(id, id))
                .map(found -> found.isEmpty() ? Map.<String, byte[]> of() : found.get(0).payload());
    }

    /** The type of a key as TYPE names it ({@code none} when there is no such key). */
    public Uni<String> type(String key) {
        return redis.execute("TYPE", key).map(Response::toString);
    }

    /** Id of the oldest entry still pending in the group, or null when none is. */
    public Uni<String> oldestPending(String stream, String group) {
        return streams.xpending(stream, group)
                .map(summary -> summary.getPendingCount() == 0 ? null : summary.getLowestId());
    }

    public Uni<Long> length(String stream) {
        return streams.xlen(stream);
    }

    /** Pending and lag of one group, from XINFO GROUPS (lag needs Redis 7; -1 when unknown). */
    public Uni<GroupInfo> groupInfo(String stream, String group) {
        return group(stream, group)
                .map(info -> {
                    if (info == null) {
                        return UNKNOWN;
                    }
                    Response lag = info.get("lag");
                    return new GroupInfo(info.get("pending").toLong(), lag == null ? -1 : lag.toLong(),
                            info.get("consumers").toLong());
                })
                .onFailure().recoverWithItem(UNKNOWN);
    }

    /** The id the group last delivered; empty when the stream has no such group. */
    public Uni<Optional<String>> lastDelivered(String stream, String group) {
        return group(stream, group)
                .map(info -> info == null ? Optional.<String> empty()
                        : Optional.of(info.get("last-delivered-id").toString()));
    }

    /** Whether the group holds the entry in its PEL: delivered to a consumer and not yet acknowledged. */
    public Uni<Boolean> isPending(String stream, String group, String id) {
        return redis.execute("XPENDING", stream, group, id, id, "1").map(pending -> pending.size() > 0);
    }

    /** One group's XINFO GROUPS fields by name, or null when the stream has no such group. */
    private Uni<Map<String, Response>> group(String stream, String group) {
        return redis.execute("XINFO", "GROUPS", stream).map(reply -> {
            for (Response g : reply) {
                Map<String, Response> info = asMap(g);
                Response name = info.get("name");
                if (name != null && group.equals(name.toString())) {
                    return info;
                }
            }
            return null;
        });
    }

    /** A RESP2 reply of name, value pairs (redrive turns protocol negotiation off, see application.properties). */
    public static Map<String, Response> asMap(Response flat) {
        Map<String, Response> map = new LinkedHashMap<>();
        for (int i = 0; i + 1 < flat.size(); i += 2) {
            map.put(flat.get(i).toString(), flat.get(i + 1));
        }
        return map;
    }
}
