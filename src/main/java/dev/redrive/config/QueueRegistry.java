package dev.redrive.config;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

import dev.redrive.redis.RedisKeys;
import dev.redrive.retry.Backoff;

/**
 * Turns {@link RedriveConfig} into validated {@link QueueSpec}s. Every check names the property,
 * so a bad value stops start-up with one message an operator can act on.
 */
public final class QueueRegistry {

    private final Map<String, QueueSpec> queues;
    private final Map<String, WatchSpec> watches;

    /**
     * @param handlerExists tells whether a Java handler bean with that name exists
     */
    public QueueRegistry(RedriveConfig config, Predicate<String> handlerExists) {
        this(config, handlerExists, false);
    }

    /**
     * @param cluster whether Redis is a cluster: then a dead-letter stream must share its origin
     *        stream's hash slot, or the dead-letter move could never be one script
     */
    public QueueRegistry(RedriveConfig config, Predicate<String> handlerExists, boolean cluster) {
        // Every bound of a number or a duration is ConfigRanges' (a zero time limit would fail every
        // operator call at once, a zero gauge interval refresh without pause): refused before anything runs.
        ConfigRanges.global(config);
        requireWaitable(config.redis(), config.redisTimeout(), cluster);
        Map<String, QueueSpec> specs = new LinkedHashMap<>();
        config.queues().forEach((name, queue) -> specs.put(name, validate(name, queue, handlerExists)));
        if (cluster) {
            specs.values().forEach(q -> requireSameSlot("redrive.queues." + q.name() + ".dlq", q.stream(), q.deadLetters()));
        }
        this.queues = Collections.unmodifiableMap(specs);
        Map<String, WatchSpec> watched = new LinkedHashMap<>();
        config.watch().forEach((name, watch) -> watched.put(name, validate(name, watch)));
        if (cluster) {
            watched.values().forEach(w -> requireSameSlot("redrive.watch." + w.name() + ".dlq", w.stream(), w.deadLetters()));
        }
        this.watches = Collections.unmodifiableMap(watched);
    }

    /** wait-replicas (its range checked by ConfigRanges): waited for within the request's own time limit, not on a cluster. */
    private static void requireWaitable(RedriveConfig.Redis redis, Duration redisTimeout, boolean cluster) {
        if (redis.waitReplicas() == 0) {
            return;
        }
        if (cluster) {
            throw new InvalidConfigException("redrive.redis.wait-replicas", "is not supported on Redis Cluster (got "
                    + redis.waitReplicas() + "): the WAIT would not reach the node that ran the write; set it to 0");
        }
        if (redis.waitTimeout().compareTo(redisTimeout) >= 0) {
            throw new InvalidConfigException("redrive.redis.wait-timeout", "must be shorter than redrive.redis-timeout ("
                    + redisTimeout + "), which bounds the whole request (got " + redis.waitTimeout() + ")");
        }
    }

    public Map<String, WatchSpec> watches() {
        return watches;
    }

    public Map<String, QueueSpec> queues() {
        return queues;
    }

    public Optional<QueueSpec> byStream(String stream) {
        return queues.values().stream().filter(q -> q.stream().equals(stream)).findFirst();
    }

    /** Every dead-letter stream a configured queue or watch parks into, without duplicates. */
    public List<String> deadLetterStreams() {
        List<String> names = new ArrayList<>();
        queues.values().forEach(q -> addOnce(names, q.deadLetters()));
        watches.values().forEach(w -> addOnce(names, w.deadLetters()));
        return names;
    }

    private static void requireSameSlot(String property, String stream, String deadLetters) {
        if (!RedisKeys.sameSlot(stream, deadLetters)) {
            throw new InvalidConfigException(property, "is '" + deadLetters + "' (or DLQ_NAME), in another Redis Cluster "
                    + "hash slot than stream '" + stream + "': parking would need two scripts; on a cluster leave "
                    + "DLQ_NAME empty so each stream parks into " + RedisKeys.defaultDeadLetters(stream)
                    + ", or give the stream and the dead-letter stream the same {hash tag}");
        }
    }

    private static void addOnce(List<String> names, String name) {
        if (!names.contains(name)) {
            names.add(name);
        }
    }

    static WatchSpec validate(String name, WatchConfig w) {
        String p = "redrive.watch." + name + ".";
        String stream = w.stream().filter(s -> !s.isBlank()).orElse(name);
        String group = w.group().filter(s -> !s.isBlank())
                .orElseThrow(() -> new InvalidConfigException(p + "group", "is required: the consumer group to police"));
        ConfigRanges.watch(p, w);
        String dlq = w.dlq().filter(s -> !s.isBlank()).orElse(RedisKeys.defaultDeadLetters(stream));
        if (dlq.equals(stream)) {
            throw new InvalidConfigException(p + "dlq", "must differ from the stream itself (" + stream + ")");
        }
        return new WatchSpec(name, stream, group, w.maxReceiveCount(), dlq, w.interval());
    }

    static QueueSpec validate(String name, QueueConfig q, Predicate<String> handlerExists) {
        String p = "redrive.queues." + name + ".";
        String stream = q.stream().orElse(name);
        if (stream.isBlank()) {
            throw new InvalidConfigException(p + "stream", "must not be blank");
        }
        if (q.group().isBlank()) {
            throw new InvalidConfigException(p + "group", "must not be blank");
        }
        if (q.jitter() < 0 || q.jitter() > 1) {
            throw new InvalidConfigException(p + "jitter", "must be between 0 and 1 (got " + q.jitter() + ")");
        }
        int batch = q.batch().orElse(Math.min(q.concurrency(), 200));
        ConfigRanges.queue(p, q, batch);
        URI url = null;
        if (QueueSpec.HTTP_HANDLER.equals(q.handler())) {
            url = httpUrl(p, q.http());
            var cb = q.http().circuitBreaker();
            if (cb.failureRatio() <= 0 || cb.failureRatio() > 1) {
                throw new InvalidConfigException(p + "http.circuit-breaker.failure-ratio", "must be in (0, 1]");
            }
        } else if (!handlerExists.test(q.handler())) {
            throw new InvalidConfigException(p + "handler",
                    "names no handler: '" + q.handler() + "' is neither 'http' nor the @Identifier of a JobHandler or BlockingJobHandler bean");
        }
        String dlq = q.dlq().filter(s -> !s.isBlank()).orElse(RedisKeys.defaultDeadLetters(stream));
        if (dlq.equals(stream)) {
            throw new InvalidConfigException(p + "dlq", "must differ from the stream itself (" + stream + ")");
        }
        return new QueueSpec(name, stream, q.group(), q.handler(), url, q.http().timeout(), q.http().bulkhead(),
                q.http().circuitBreaker(), q.attempts(),
                Backoff.exponential(q.backoff(), q.maxBackoff(), q.jitter()), dlq, q.concurrency(), batch,
                q.block(), q.retryPoll(), q.visibilityTimeout(), q.maxRetryAfter(), q.proposeAfterOutage());
    }

    private static URI httpUrl(String p, HttpConfig http) {
        String raw = http.url().filter(s -> !s.isBlank())
                .orElseThrow(() -> new InvalidConfigException(p + "http.url", "is required when handler=http"));
        try {
            URI url = URI.create(raw);
            if (!"http".equals(url.getScheme()) && !"https".equals(url.getScheme()) || url.getHost() == null) {
                throw new InvalidConfigException(p + "http.url", "must be an absolute http(s) URL (got '" + raw + "')");
            }
            return url;
        } catch (IllegalArgumentException e) {
            throw new InvalidConfigException(p + "http.url", "is not a URL (got '" + raw + "')");
        }
    }
}
