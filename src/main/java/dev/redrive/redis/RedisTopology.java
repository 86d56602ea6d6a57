package dev.redrive.redis;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Whether redrive talks to a Redis Cluster. On a single Redis a script may touch any keys; on a
 * cluster only keys of one hash slot, which is why every key a script touches with a stream
 * carries that stream's hash tag ({@link RedisKeys}).
 */
@ApplicationScoped
public class RedisTopology {

    @ConfigProperty(name = "quarkus.redis.client-type", defaultValue = "standalone")
    String clientType;

    public boolean cluster() {
        return "cluster".equalsIgnoreCase(clientType);
    }

    /** Whether one script may touch all these keys here. */
    public boolean oneScript(String... keys) {
        if (!cluster()) {
            return true;
        }
        for (String key : keys) {
            if (!RedisKeys.sameSlot(keys[0], key)) {
                return false;
            }
        }
        return true;
    }
}
