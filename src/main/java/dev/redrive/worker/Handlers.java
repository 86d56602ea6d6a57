package dev.redrive.worker;

import java.util.function.Function;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;

import dev.redrive.config.QueueSpec;
import dev.redrive.http.HttpJobHandler;
import dev.redrive.job.BlockingJobHandler;
import dev.redrive.job.Job;
import dev.redrive.job.JobHandler;
import io.smallrye.common.annotation.Identifier;
import io.smallrye.faulttolerance.api.CircuitBreakerState;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.vertx.mutiny.core.http.HttpClient;

/**
 * Finds the handler a queue names: the HTTP handler, or a Java bean by its {@code @Identifier}
 * (that the bean exists was checked with the configuration, at start-up).
 */
@ApplicationScoped
public class Handlers {

    @Inject
    @Any
    Instance<JobHandler> reactive;

    @Inject
    @Any
    Instance<BlockingJobHandler> blocking;

    @Inject
    HttpClient httpClient;

    public Function<Job, Uni<Void>> forQueue(QueueSpec spec, java.util.function.Consumer<CircuitBreakerState> onCircuit) {
        if (spec.isHttp()) {
            return new HttpJobHandler(httpClient, spec, onCircuit)::handle;
        }
        var javaHandler = reactive.select(Identifier.Literal.of(spec.handler()));
        if (javaHandler.isResolvable()) {
            return javaHandler.get()::handle;
        }
        BlockingJobHandler blockingHandler = blocking.select(Identifier.Literal.of(spec.handler())).get();
        return job -> Uni.createFrom().<Void>item(() -> {
            try {
                blockingHandler.handle(job);
                return null;
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new java.util.concurrent.CompletionException(e);
            }
        }).runSubscriptionOn(Infrastructure.getDefaultWorkerPool());
    }
}
