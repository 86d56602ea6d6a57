package dev.redrive.observe;

import java.time.Duration;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

import dev.redrive.worker.QueueWorker;
import dev.redrive.worker.Workers;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.smallrye.health.api.AsyncHealthCheck;
import io.smallrye.mutiny.Uni;

/**
 * Ready when Redis answers and every queue's group is in place. Liveness deliberately does not
 * look at Redis: a Redis outage should stop traffic to the pod, not restart it.
 */
@Readiness
@ApplicationScoped
public class RedisReadiness implements AsyncHealthCheck {

    @Inject
    ReactiveRedisDataSource redis;

    @Inject
    Workers workers;

    @Override
    public Uni<HealthCheckResponse> call() {
        return redis.execute("PING").ifNoItem().after(Duration.ofSeconds(2)).fail()
                .map(pong -> {
                    HealthCheckResponseBuilder b = HealthCheckResponse.named("redrive");
                    int configured = workers.registry() == null ? 0 : workers.registry().queues().size();
                    int started = workers.running().size();
                    b.withData("redis", "up").withData("queues", configured).withData("started", started);
                    for (QueueWorker w : workers.running().values()) {
                        b.withData("queue." + w.spec().name(), w.paused() ? "paused: circuit open" : "running");
                    }
                    return b.status(started == configured).build();
                })
                .onFailure().recoverWithItem(e -> HealthCheckResponse.named("redrive").down()
                        .withData("redis", "down: " + e.getMessage()).build());
    }
}
