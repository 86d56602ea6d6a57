package dev.redrive.redis;

import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Response;

/** How far a consumer group has come with one entry: what a redrive's canary waits on. */
@ApplicationScoped
public class GroupProgress {

    @Inject
    ReactiveRedisDataSource redis;

    /** Whether the group holds the entry in its PEL: delivered to a consumer and not yet acknowledged. */
    public Uni<Boolean> isPending(String stream, String group, String id) {
        return redis.execute("XPENDING", stream, group, id, id, "1").map(pending -> pending.size() > 0);
    }

    /** The id the group last delivered; empty when the stream has no such group. */
    public Uni<Optional<String>> lastDelivered(String stream, String group) {
        return redis.execute("XINFO", "GROUPS", stream).map(groups -> {
            for (Response g : groups) {
                Map<String, Response> info = StreamAccess.asMap(g);
                if (group.equals(info.get("name").toString())) {
                    return Optional.of(info.get("last-delivered-id").toString());
                }
            }
            return Optional.empty();
        });
    }
}
