package dev.redrive.redis;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Redis;
import io.vertx.mutiny.redis.client.RedisConnection;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.redis.client.impl.PooledRedisConnection;

/**
 * The connections redrive blocks on, kept apart from the shared pool ({@code
 * quarkus.redis.max-pool-size}), which serves only commands that answer at once. One
 * {@link BlockingReader} per consumer group on a single Redis, so any number of queues of one
 * group hold one blocked connection; on Redis Cluster one per (group, hash slot), since one read
 * can only name streams of one slot: queues whose streams share a hash tag share a reader.
 * A connection of its own per node wakes a blocked reader ({@code CLIENT UNBLOCK}).
 */
@ApplicationScoped
public class BlockingReads {

    /** A reader holds its connection for good; the client's pool only has to hold them all. */
    private static final int MAX_READERS_PER_CLIENT = 4096;

    /** A reader that can't read: its group, the streams waiting on it, and why. */
    public record Failing(String group, List<String> streams, String reason) {
    }

    @Inject
    RedisClientOptions options;

    @Inject
    RedisTopology topology;

    @Inject
    Vertx vertx;

    private final Map<String, BlockingReader> readers = new ConcurrentHashMap<>();
    /** A client per node (null key: the configured address); its pool holds the readers' connections. */
    private final Map<String, Redis> clients = new ConcurrentHashMap<>();

    /**
     * The reader that waits for new entries of {@code stream} read by {@code consumer} of {@code
     * group}; its calls that should answer at once give up after {@code timeLimit}.
     */
    public BlockingReader reader(String stream, String group, String consumer, Duration timeLimit) {
        String key = group + '\n' + consumer + (topology.cluster() ? "\n" + HashSlot.of(stream) : "");
        return readers.computeIfAbsent(key, k -> new BlockingReader(this, group, consumer, timeLimit));
    }

    /** Readers open now: each holds one connection while any of its streams waits. */
    public int readers() {
        return readers.size();
    }

    /** The readers that can't read now, with the streams whose new entries wait unread. */
    public List<Failing> failing() {
        return readers.values().stream().map(BlockingReader::failing).flatMap(Optional::stream).toList();
    }

    /**
     * A connection of the readers' own client, or a failure after {@code timeLimit}. A connection
     * that arrives after its caller gave up is closed: while Redis is frozen, each retry's connect
     * waits for its handshake, and every one would stay open, unused, once Redis answers again.
     */
    Uni<RedisConnection> connect(String node, Duration timeLimit) {
        Uni<RedisConnection> connecting = client(node).connect().memoize().indefinitely();
        return connecting.ifNoItem().after(timeLimit).fail()
                .onFailure().invoke(() -> connecting.subscribe().with(BlockingReads::close, e -> { }));
    }

    /**
     * Closes the connection itself, not only its lease. A connection given up on (no answer within
     * its limit) may never answer again, or answer late: handed back to the client's pool, the
     * next connect would get it back, and a reader whose connection stopped answering without
     * closing would wait on it for good. (Vert.x's pool recycles a leased connection on close();
     * only its internal connection can be closed outright.)
     */
    static void close(RedisConnection connection) {
        if (connection.getDelegate() instanceof PooledRedisConnection pooled) {
            pooled.actual().forceClose();
        } else {
            connection.close().subscribe().with(ok -> { }, e -> { });
        }
    }

    /**
     * Where a reader that knows no node of its slot connects on its {@code turn}-th try: on Redis
     * Cluster the configured nodes in turn, since any of them may be the one that died, and each
     * live one answers for the slot or names its owner with MOVED; otherwise null, the configured
     * address (a single Redis, or the primary Sentinel names on every connect).
     */
    String seed(int turn) {
        if (!topology.cluster()) {
            return null;
        }
        List<String> seeds = options.nodes();
        return seeds.get(Math.floorMod(turn, seeds.size()));
    }

    /** Wakes a blocked read; best effort, as the read returns on its own after its block time anyway. */
    void unblock(String node, long clientId, Duration timeLimit) {
        client(node).send(Request.cmd(Command.CLIENT).arg("UNBLOCK").arg(clientId))
                .ifNoItem().after(timeLimit).fail()
                .subscribe().with(ok -> { }, e -> { });
    }

    void later(Duration delay, Runnable task) {
        if (delay.isZero()) {
            vertx.getOrCreateContext().runOnContext(task);
        } else {
            vertx.setTimer(delay.toMillis(), t -> task.run());
        }
    }

    private Redis client(String node) {
        return clients.computeIfAbsent(node == null ? "" : node,
                n -> Redis.createClient(vertx, options.forClient(node, MAX_READERS_PER_CLIENT)));
    }

    @PreDestroy
    void close() {
        readers.values().forEach(BlockingReader::close);
        clients.values().forEach(Redis::close);
    }
}
