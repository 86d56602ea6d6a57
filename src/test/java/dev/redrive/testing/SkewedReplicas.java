package dev.redrive.testing;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Replicas of the packaged service on one private Redis, some with their wall clock {@link #SKEW}
 * off (Debian's faketime, {@link RedriveProcess#skewedBy}): for the decisions two processes must
 * agree on (a retry's Retry-After, a redrive's lease, a proposal's expiry), which must not depend
 * on whose clock is right. A test starts each replica when it needs it, with the shared settings
 * (Redis, the API's users) and its own; a real HTTP server stands in for the provider.
 */
public final class SkewedReplicas implements AutoCloseable {

    /** An hour behind: what issue 34 saw hold every Retry-After retry an hour late. */
    public static final String SKEW = "-1h";
    /** A replica's start, JVM included, on a CI machine shared with other builds. */
    private static final Duration READY_WITHIN = Duration.ofSeconds(90);

    private final RedisServer redis = new RedisServer().start();
    private final Downstream downstream = new Downstream(RedisServer.freePort());
    private final List<RedriveProcess> replicas = new ArrayList<>();

    public RedisServer redis() {
        return redis;
    }

    public Downstream downstream() {
        return downstream;
    }

    /** A replica whose clock is right, started and ready. */
    public RedriveProcess onTime(String name, Map<String, String> config) {
        return started(new RedriveProcess(name, settings(name, config)));
    }

    /** A replica whose clock is {@link #SKEW} off (its monotonic clock is not), started and ready. */
    public RedriveProcess skewed(String name, Map<String, String> config) {
        return started(new RedriveProcess(name, settings(name, config)).skewedBy(SKEW));
    }

    private Map<String, String> settings(String name, Map<String, String> config) {
        Map<String, String> all = new HashMap<>(ApiUsers.config());
        all.put("quarkus.redis.hosts", redis.url());
        all.put("redrive.consumer-name", name);
        all.putAll(config);
        return all;
    }

    private RedriveProcess started(RedriveProcess replica) {
        replicas.add(replica);
        return replica.start().awaitReady(READY_WITHIN);
    }

    @Override
    public void close() {
        replicas.forEach(RedriveProcess::close);
        downstream.close();
        redis.close();
    }
}
