package dev.redrive.redis;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Redis;
import io.vertx.mutiny.redis.client.RedisConnection;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.redis.client.RedisOptions;
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

    @ConfigProperty(name = "quarkus.redis.hosts")
    String hosts;

    @ConfigProperty(name = "quarkus.redis.password")
    Optional<String> password;

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
        return clients.computeIfAbsent(node == null ? "" : node, n -> Redis.createClient(vertx, options(n)));
    }

    private RedisOptions options(String node) {
        // A reader holds its connection for good; the client's pool only has to hold them all.
        RedisOptions options = new RedisOptions().setConnectionString(address(node))
                .setMaxPoolSize(4096).setMaxPoolWaiting(4096).setProtocolNegotiation(false);
        password.filter(p -> !p.isEmpty()).ifPresent(options::setPassword);
        return options;
    }

    /** The first configured host, or another node reached with the same scheme, user, password and database. */
    private String address(String node) {
        String first = hosts.split(",")[0].trim();
        if (node.isEmpty()) {
            return first;
        }
        try {
            URI uri = new URI(first);
            int colon = node.lastIndexOf(':');
            return new URI(uri.getScheme(), uri.getUserInfo(), node.substring(0, colon),
                    Integer.parseInt(node.substring(colon + 1)), uri.getPath(), uri.getQuery(), null).toString();
        } catch (URISyntaxException | NumberFormatException e) {
            throw new IllegalStateException("can't reach node " + node + " of " + first, e);
        }
    }

    @PreDestroy
    void close() {
        readers.values().forEach(BlockingReader::close);
        clients.values().forEach(Redis::close);
    }
}
