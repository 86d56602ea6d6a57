package dev.redrive.observe;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

import dev.redrive.config.QueueRegistry;
import dev.redrive.redis.BlockingReads;
import dev.redrive.redis.LuaScripts;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.smallrye.health.api.AsyncHealthCheck;
import io.smallrye.mutiny.Uni;

/**
 * Ready when Redis answers, every queue's group is in place, every blocking reader reads
 * (a failing one names its queues) and Redis runs redrive's scripts (while it refuses them with
 * NOPERM, the refused command is named: {@link LuaScripts#refusal()}). Liveness deliberately does not
 * look at Redis: a Redis outage should stop traffic to the pod, not restart it. This is the only
 * check that looks at Redis (the client's own, which waits quarkus.redis.timeout, is switched off
 * in application.properties), so readiness answers within a second even when Redis is frozen.
 */
@Readiness
@ApplicationScoped
public class RedisReadiness implements AsyncHealthCheck {

    /** Well inside the probe's own timeout (3s in deploy/), so the probe gets DOWN, not no answer. */
    static final Duration PING_LIMIT = Duration.ofMillis(800);

    @Inject
    ReactiveRedisDataSource redis;

    @Inject
    QueueRegistry registry;

    @Inject
    QueueStates queues;

    @Inject
    BlockingReads reads;

    @Inject
    LuaScripts scripts;

    @Override
    public Uni<HealthCheckResponse> call() {
        return redis.execute("PING").ifNoItem().after(PING_LIMIT).fail()
                .map(pong -> {
                    HealthCheckResponseBuilder b = HealthCheckResponse.named("redrive");
                    int configured = registry.queues().size();
                    Map<String, Boolean> started = queues.pausedByQueue();
                    b.withData("redis", "up").withData("queues", configured).withData("started", started.size());
                    if (queues.warmingUp()) {
                        b.withData("warm-up", "running: the queues start when it ends");
                    }
                    started.forEach((name, paused) -> b.withData("queue." + name,
                            paused ? "paused: circuit open" : "running"));
                    // A queue whose blocking reader can't connect looks healthy to PING and to the pool,
                    // yet none of its new entries is read: it makes the pod not ready, named.
                    List<BlockingReads.Failing> failing = reads.failing();
                    for (BlockingReads.Failing f : failing) {
                        registry.queues().values().stream()
                                .filter(q -> q.group().equals(f.group()) && f.streams().contains(q.stream()))
                                .forEach(q -> b.withData("queue." + q.name(), "new entries not read: " + f.reason()));
                    }
                    // PING is allowed, yet a user whose scripts Redis refuses can neither claim nor park a job.
                    Optional<String> refused = scripts.refusal();
                    refused.ifPresent(r -> b.withData("redis", r));
                    return b.status(started.size() == configured && failing.isEmpty() && refused.isEmpty()).build();
                })
                .onFailure().recoverWithItem(e -> HealthCheckResponse.named("redrive").down()
                        .withData("redis", "down: " + e.getMessage()).build());
    }
}
