package dev.redrive.redis;

import java.time.Duration;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.redis.datasource.value.SetArgs;
import io.smallrye.mutiny.Uni;

/**
 * The console sessions logout ended ({@link RedisKeys#consoleSessionEnded}), shared by every
 * replica: api/ConsoleSessions writes one at logout and asks on each console request.
 */
@ApplicationScoped
public class EndedSessions {

    @Inject
    ReactiveRedisDataSource redis;

    /** Marks the session ended for {@code keep}, after which no copy of its cookies is valid anyway. */
    public Uni<Void> end(String sessionId, Duration keep) {
        return redis.value(String.class).set(RedisKeys.consoleSessionEnded(sessionId), "ended", new SetArgs().px(keep.toMillis()));
    }

    /**
     * Whether the session was ended; an ended one is kept ended for {@code keep} more from now, in
     * the same command (PEXPIRE answers whether the key exists): a copy of its cookies that is still
     * used keeps the form mechanism refreshing its form cookie, so the mark must outlive that use.
     */
    public Uni<Boolean> ended(String sessionId, Duration keep) {
        return redis.key(String.class).pexpire(RedisKeys.consoleSessionEnded(sessionId), keep.toMillis());
    }
}
