package dev.redrive.api;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import jakarta.interceptor.InterceptorBinding;

/**
 * An endpoint whose answer waits on Redis gives up after {@code redrive.redis-timeout}: a
 * stalled Redis then gets a 503 (see {@link RedisFailures}), never a request that hangs.
 */
@InterceptorBinding
@Target({ ElementType.TYPE, ElementType.METHOD })
@Retention(RetentionPolicy.RUNTIME)
public @interface RedisTimeLimit {
}
