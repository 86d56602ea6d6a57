package dev.redrive.http;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.PoolOptions;

/**
 * The one HTTP client all HTTP handlers share: keep-alive connections, pooled per host. The bare
 * Vert.x client, not the Mutiny one: the handler composes Vert.x futures and makes one Uni of them.
 */
@ApplicationScoped
public class OutboundHttp {

    @Produces
    @Singleton
    HttpClient client(Vertx vertx) {
        return vertx.createHttpClient(new HttpClientOptions().setKeepAlive(true).setTcpNoDelay(true),
                new PoolOptions().setHttp1MaxSize(256));
    }

    void close(@Disposes HttpClient client) {
        client.close().toCompletionStage().toCompletableFuture().join();
    }
}
