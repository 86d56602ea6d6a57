package dev.redrive.redis;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.mutiny.redis.client.Response;

/**
 * Operator writes that a replica must have before they count ({@code redrive.redis.wait-replicas}):
 * the script, then {@code WAIT <n> <wait-timeout>} on the same connection. Redis replicates
 * asynchronously, so without it a write the primary confirmed can vanish in a failover that
 * promotes a replica which never got it. With {@code wait-replicas} at 0 the script runs alone.
 */
@ApplicationScoped
public class Replication {

    /**
     * A script's reply (as Redis gave it) and how many replicas confirmed the connection's writes
     * within the wait ({@code wanted} of them asked; both 0 when none is asked).
     */
    public record Written(Response reply, long replicas, int wanted, Duration waited) {
        public boolean confirmed() {
            return replicas >= wanted;
        }
    }

    /**
     * How many replicas each operator write waits for (0: none), and how long at most: from
     * {@code redrive.redis.wait-replicas} and {@code wait-timeout}, which config/ checks and hands
     * in (redis/ reads no configuration of redrive's own).
     */
    public record Wait(int replicas, Duration timeout) {
    }

    @Inject
    Wait wait;

    @Inject
    LuaScripts scripts;

    /** How many replicas each operator write waits for; 0: none. */
    public int wanted() {
        return wait.replicas();
    }

    public Uni<Written> runBinary(LuaScripts.Script script, List<String> keys, List<byte[]> args) {
        int wanted = wanted();
        Duration timeout = wait.timeout();
        if (wanted == 0) {
            return scripts.runBinary(script, keys, args).map(reply -> new Written(reply, 0, 0, Duration.ZERO));
        }
        Request wait = Request.cmd(Command.WAIT).arg(wanted).arg(Math.max(1, timeout.toMillis()));
        return scripts.runBinaryThen(script, keys, args, wait)
                .map(replies -> new Written(replies.get(0), replies.get(1).toLong(), wanted, timeout));
    }

    public Uni<Written> run(LuaScripts.Script script, List<String> keys, List<String> args) {
        return runBinary(script, keys, args.stream().map(a -> a.getBytes(StandardCharsets.UTF_8)).toList());
    }
}
