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
import dev.redrive.trace.Tracing;
import io.opentelemetry.context.Context;
import io.smallrye.common.annotation.Identifier;
import io.smallrye.faulttolerance.api.CircuitBreakerState;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.vertx.core.http.HttpClient;

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

    @Inject
    io.vertx.core.Vertx vertx;

    @Inject
    Tracing tracing;

    public Function<Job, Uni<Void>> forQueue(QueueSpec spec, java.util.function.Consumer<CircuitBreakerState> onCircuit) {
        if (spec.isHttp()) {
            return new HttpJobHandler(vertx, httpClient, spec, onCircuit, tracing.on())::handle;
        }
        var javaHandler = reactive.select(Identifier.Literal.of(spec.handler()));
        if (javaHandler.isResolvable()) {
            return javaHandler.get()::handle;
        }
        BlockingJobHandler blockingHandler = blocking.select(Identifier.Literal.of(spec.handler())).get();
        if (tracing.on()) {
            // The attempt's span is current where the handler is called, not on the worker thread.
            return job -> {
                Context attempt = Context.current();
                return onWorker(j -> {
                    try (var scope = attempt.makeCurrent()) {
                        blockingHandler.handle(j);
                    }
                }, job);
            };
        }
        return job -> onWorker(blockingHandler, job);
    }

    private static Uni<Void> onWorker(BlockingJobHandler handler, Job job) {
        return Uni.createFrom().<Void>item(() -> {
            try {
                handler.handle(job);
                return null;
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new java.util.concurrent.CompletionException(e);
            }
        }).runSubscriptionOn(Infrastructure.getDefaultWorkerPool());
    }
}
