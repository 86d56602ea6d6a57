package dev.redrive.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import dev.redrive.testing.Await;
import dev.redrive.testing.RedisServer;

/**
 * A Redis Cluster of private redis-server processes on free ports ({@link RedisServer} with
 * {@code --cluster-enabled yes}), made with {@code redis-cli --cluster create}: {@code primaries}
 * nodes share the slots, each with {@code replicasEach} replicas. Started ready (every node sees
 * {@code cluster_state:ok}, every replica in sync) and stopped by {@link #close}.
 */
final class RedisCluster implements AutoCloseable {

    private final List<RedisServer> nodes = new ArrayList<>();

    private RedisCluster() {
    }

    static RedisCluster start(int primaries, int replicasEach, String... nodeArgs) throws Exception {
        RedisCluster cluster = new RedisCluster();
        try {
            for (int i = 0; i < primaries * (1 + replicasEach); i++) {
                // The bus port is a free one too: Redis' default (port + 10000) may be taken, and the node exits.
                String[] args = Stream.concat(Stream.of("--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
                        "--cluster-port", Integer.toString(RedisServer.freePort())), Stream.of(nodeArgs)).toArray(String[]::new);
                cluster.nodes.add(new RedisServer(args).start());
            }
            List<String> create = new ArrayList<>(List.of("redis-cli", "--cluster", "create"));
            cluster.nodes.forEach(n -> create.add("127.0.0.1:" + n.port()));
            create.addAll(List.of("--cluster-replicas", Integer.toString(replicasEach), "--cluster-yes"));
            Process p = new ProcessBuilder(create).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(0, p.waitFor(), out);
            Await.until("the cluster to be ok", Duration.ofSeconds(30), () -> cluster.nodes.stream().allMatch(n ->
                    info(n.port(), "CLUSTER", "INFO").contains("cluster_state:ok")));
            // WAIT 1 needs each primary's replicas attached and in sync, not only the slots covered.
            Await.until("every replica in sync", Duration.ofSeconds(30), () -> cluster.nodes.stream().allMatch(n -> {
                String replication = info(n.port(), "INFO", "replication");
                return replication.contains("role:slave") ? replication.contains("master_link_status:up")
                        : replication.contains("connected_slaves:" + replicasEach);
            }));
            return cluster;
        } catch (Exception | AssertionError e) {
            cluster.close();
            throw e;
        }
    }

    List<RedisServer> nodes() {
        return nodes;
    }

    RedisServer node(int port) {
        return nodes.stream().filter(n -> n.port() == port).findFirst().orElseThrow();
    }

    /**
     * The port of the node that serves {@code key}'s slot now, or -1 while none does (a failover
     * under way): the one live node that answers for the key itself instead of with {@code MOVED}.
     */
    int ownerOf(String key) {
        for (RedisServer n : nodes) {
            try (RedisCli cli = new RedisCli("127.0.0.1", n.port(), 1000)) {
                if (!(cli.call("EXISTS", key) instanceof RuntimeException)) {
                    return n.port();
                }
            } catch (IOException | IllegalStateException gone) {
                // a killed node: another one serves the slot, or none yet
            }
        }
        return -1;
    }

    /** A reply of a live node as text; empty when it can't be asked. */
    private static String info(int port, String... command) {
        try (RedisCli cli = new RedisCli("127.0.0.1", port, 1000)) {
            return RedisCli.text(cli.call((Object[]) command));
        } catch (Exception e) {
            return "";
        }
    }

    @Override
    public void close() {
        nodes.forEach(RedisServer::close);
    }
}
