package dev.redrive.observe;

import java.util.logging.Filter;
import java.util.logging.LogRecord;

import io.quarkus.logging.LoggingFilter;

/**
 * Drops the start-up warning "This Gauge has been already registered (redis.pool.…)". Quarkus'
 * Redis extension initialises the default client twice (once for the data source, once for the
 * client beans); the second Vert.x client is thrown away unused (the first one is kept), but its
 * connection pool has already registered the same pool gauges. The metrics shown are the kept
 * client's; only the warning about the discarded one is noise. Any other duplicate still warns.
 */
@LoggingFilter(name = "discarded-redis-pool")
public final class DiscardedRedisPoolFilter implements Filter {

    @Override
    public boolean isLoggable(LogRecord record) {
        String message = record.getMessage();
        return message == null || !(message.startsWith("This Gauge has been already registered")
                && message.contains("name='redis.pool."));
    }
}
