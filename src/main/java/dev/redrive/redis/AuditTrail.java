package dev.redrive.redis;

import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.redis.datasource.stream.XAddArgs;
import io.smallrye.mutiny.Uni;

/**
 * Appends to a dead-letter stream's audit trail ({@link RedisKeys#audit}) the records that no
 * script writes in the same step as the act (a redrive's start and cancel), and to the capped
 * trail of MCP calls that move nothing ({@link RedisKeys#mcpCalls}); the fields are the caller's.
 */
@ApplicationScoped
public class AuditTrail {

    @Inject
    ReactiveRedisDataSource redis;

    /** Returns the audit entry's id. */
    public Uni<String> append(String deadLetters, Map<String, String> record) {
        return redis.stream(String.class, String.class, String.class).xadd(RedisKeys.audit(deadLetters), record);
    }

    /**
     * Appends to the MCP calls' trail, trimming it to about {@code keep} records in the same
     * command ({@code MAXLEN ~}: Redis trims whole nodes, cheaply); returns the entry's id.
     */
    public Uni<String> appendCall(Map<String, String> record, long keep) {
        return redis.stream(String.class, String.class, String.class).xadd(RedisKeys.mcpCalls(),
                new XAddArgs().maxlen(keep).nearlyExactTrimming(), record);
    }
}
