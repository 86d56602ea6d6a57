package dev.redrive.redis;

import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.smallrye.mutiny.Uni;

/**
 * Appends to a dead-letter stream's audit trail ({@link RedisKeys#audit}) the records that no
 * script writes in the same step as the act (a redrive's start and cancel); the fields are the
 * caller's.
 */
@ApplicationScoped
public class AuditTrail {

    @Inject
    ReactiveRedisDataSource redis;

    /** Returns the audit entry's id. */
    public Uni<String> append(String deadLetters, Map<String, String> record) {
        return redis.stream(String.class, String.class, String.class).xadd(RedisKeys.audit(deadLetters), record);
    }
}
