package dev.redrive.api;

import jakarta.annotation.Priority;
import jakarta.inject.Inject;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;

import dev.redrive.config.RedriveConfig;
import io.smallrye.mutiny.Uni;

/**
 * Bounds the answers of {@link RedisTimeLimit} endpoints. The reactive Redis client has no time
 * limit per command, so the limit goes on the whole answer here, in one place for every endpoint.
 * Blocking endpoints bound each of their Redis waits themselves (redrive/RedisWait).
 */
@RedisTimeLimit
@Interceptor
@Priority(Interceptor.Priority.APPLICATION)
public class RedisTimeLimitInterceptor {

    @Inject
    RedriveConfig config;

    @AroundInvoke
    Object bound(InvocationContext call) throws Exception {
        Object answer = call.proceed();
        if (answer instanceof Uni<?> uni) {
            return uni.ifNoItem().after(config.redisTimeout()).fail();
        }
        return answer;
    }
}
