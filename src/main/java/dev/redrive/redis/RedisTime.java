package dev.redrive.redis;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.smallrye.mutiny.Uni;

/**
 * Now on Redis' clock ({@code TIME}), for a read that must agree with what the scripts decide by
 * (lib/clock.lua): whether a proposal still waits is decided against Redis' time, so it is shown
 * against Redis' time, whatever this process's clock says.
 */
@ApplicationScoped
public class RedisTime {

    @Inject
    ReactiveRedisDataSource redis;

    public Uni<Instant> now() {
        return redis.execute("TIME").map(time -> Instant.ofEpochSecond(time.get(0).toLong(), time.get(1).toLong() * 1000)
                .truncatedTo(ChronoUnit.MILLIS));
    }
}
