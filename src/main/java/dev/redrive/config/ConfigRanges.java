package dev.redrive.config;

import java.time.Duration;

/**
 * The documented range of every duration and count in the configuration (README, "Ranges"),
 * checked at start-up by {@link QueueRegistry}. A value outside it is a typo or a unit mistake
 * ({@code backoff=999999999999d}): past the top, sums of milliseconds overflow on every scheduler
 * tick and a job never moves, so start-up is refused with the property's name instead.
 * The lower bounds QueueRegistry already checks with messages of their own (at least 1, positive,
 * not negative) come first; these add the rest.
 */
final class ConfigRanges {

    private static final Duration MS = Duration.ofMillis(1);
    private static final Duration HOUR = Duration.ofHours(1);
    private static final Duration DAY = Duration.ofDays(1);
    private static final Duration WEEK = Duration.ofDays(7);
    private static final Duration YEAR = Duration.ofDays(365);
    private static final int MAX_BYTES = 64 * 1024 * 1024;

    private ConfigRanges() {
    }

    static void global(RedriveConfig c) {
        within("redrive.shutdown-timeout", c.shutdownTimeout(), Duration.ZERO, HOUR);
        within("redrive.redis-timeout", c.redisTimeout(), MS, HOUR);
        within("redrive.gauge-interval", c.gaugeInterval(), MS, HOUR);
        within("redrive.warm-up.jobs", c.warmUp().jobs(), 0, 1_000_000);
        within("redrive.warm-up.timeout", c.warmUp().timeout(), Duration.ofSeconds(1), HOUR);
        within("redrive.reads.value-bytes", c.reads().valueBytes(), 1, MAX_BYTES);
        within("redrive.reads.entry-bytes", c.reads().entryBytes(), 1024, MAX_BYTES);
        within("redrive.reads.concurrent", c.reads().concurrent(), 1, 1000);
        within("redrive.reads.stall-timeout", c.reads().stallTimeout(), MS, HOUR);
        within("redrive.console.refresh", c.console().refresh(), Duration.ofSeconds(1), HOUR);
        within("redrive.tracing.drop-warning-interval", c.tracing().dropWarningInterval(), Duration.ofSeconds(1), HOUR);
        within("redrive.replay.repeat-offender-after", c.replay().repeatOffenderAfter(), 1, 1_000_000);
        within("redrive.replay.max-body-bytes", c.replay().maxBodyBytes(), 1024, MAX_BYTES);
        within("redrive.replay.idempotency-ttl", c.replay().idempotencyTtl(), Duration.ofSeconds(1), Duration.ofDays(30));
        within("redrive.replay.scan-limit", c.replay().scanLimit(), 1, 1_000_000);
        within("redrive.replay.canary-timeout", c.replay().canaryTimeout(), Duration.ofSeconds(1), DAY);
        within("redrive.replay.redrive-lease", c.replay().redriveLease(), Duration.ofSeconds(1), HOUR);
        within("redrive.replay.redrive-retention", c.replay().redriveRetention(), Duration.ofMinutes(1), YEAR);
        within("redrive.proposals.ttl", c.proposals().ttl(), Duration.ofMinutes(1), Duration.ofDays(30));
        within("redrive.proposals.count-limit", c.proposals().countLimit(), 1, 100_000_000);
        within("redrive.redis.wait-replicas", c.redis().waitReplicas(), 0, 100);
        within("redrive.redis.wait-timeout", c.redis().waitTimeout(), MS, HOUR);
        within("redrive.agents.read-audit-records", c.agents().readAuditRecords(), 100, 10_000_000);
        logins(c.logins());
    }

    private static void logins(LoginsConfig l) {
        within("redrive.logins.free-failures", l.freeFailures(), 1, 1000);
        within("redrive.logins.free-failures-per-address", l.freeFailuresPerAddress(), 1, 1_000_000);
        within("redrive.logins.tracked", l.tracked(), 100, 10_000_000);
        within("redrive.logins.lockout", l.lockout(), Duration.ofMillis(100), HOUR);
        within("redrive.logins.max-lockout", l.maxLockout(), l.lockout(), DAY);
        within("redrive.logins.forget-after", l.forgetAfter(), l.maxLockout(), WEEK);
    }

    static void queue(String p, QueueConfig q, int batch) {
        within(p + "attempts", q.attempts(), 1, 1000, "it defaults to JOB_ATTEMPTS");
        within(p + "backoff", q.backoff(), Duration.ZERO, WEEK, "it defaults to RETRY_BACKOFF_MS");
        within(p + "max-backoff", q.maxBackoff(), Duration.ZERO, WEEK);
        within(p + "max-retry-after", q.maxRetryAfter(), Duration.ZERO, WEEK);
        within(p + "concurrency", q.concurrency(), 1, 10_000);
        within(p + "batch", batch, 1, 10_000);
        within(p + "block", q.block(), MS, Duration.ofMinutes(10));
        within(p + "retry-poll", q.retryPoll(), MS, HOUR);
        within(p + "visibility-timeout", q.visibilityTimeout(), Duration.ofMillis(300), WEEK);
        within(p + "http.timeout", q.http().timeout(), MS, HOUR);
        within(p + "http.bulkhead", q.http().bulkhead(), 1, 10_000);
        within(p + "http.circuit-breaker.window", q.http().circuitBreaker().window(), 1, 1_000_000);
        within(p + "http.circuit-breaker.delay", q.http().circuitBreaker().delay(), Duration.ZERO, HOUR);
    }

    static void watch(String p, WatchConfig w) {
        within(p + "max-receive-count", w.maxReceiveCount(), 1, 1_000_000, "it defaults to MAX_RECEIVE_COUNT");
        within(p + "interval", w.interval(), MS, HOUR);
    }

    static void within(String property, Duration value, Duration min, Duration max) {
        within(property, value, min, max, null);
    }

    /**
     * The one check of a duration's bounds; {@code hint} (or null) says where its default comes
     * from, said with a value below the least. A least of zero or of 1ms is said as what it means
     * (not negative, positive).
     */
    static void within(String property, Duration value, Duration min, Duration max, String hint) {
        if (value.compareTo(min) < 0) {
            String least = min.isZero() ? "must not be negative" : min.equals(MS) ? "must be positive"
                    : "must be between " + min + " and " + max;
            throw new InvalidConfigException(property, least + got(value, hint));
        }
        if (value.compareTo(max) > 0) {
            throw new InvalidConfigException(property, "must be between " + min + " and " + max + got(value, null));
        }
    }

    static void within(String property, long value, long min, long max) {
        within(property, value, min, max, null);
    }

    /**
     * The one check of a number's bounds; {@code hint} (or null) says where its default comes from,
     * said with a value below the least.
     */
    static void within(String property, long value, long min, long max, String hint) {
        if (value < min) {
            String least = min == 1 ? "must be at least 1" : "must be between " + min + " and " + max;
            throw new InvalidConfigException(property, least + got(value, hint));
        }
        if (value > max) {
            throw new InvalidConfigException(property, "must be between " + min + " and " + max + got(value, null));
        }
    }

    private static String got(Object value, String hint) {
        return " (got " + value + (hint == null ? "" : "; " + hint) + ")";
    }
}
