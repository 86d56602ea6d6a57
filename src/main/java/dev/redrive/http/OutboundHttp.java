package dev.redrive.http;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.PoolOptions;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.core.http.HttpClient;

/** The one HTTP client all HTTP handlers share: keep-alive connections, pooled per host. */
@ApplicationScoped
public class OutboundHttp {

    @Produces
    @Singleton
    HttpClient client(Vertx vertx) {
        return vertx.createHttpClient(new HttpClientOptions().setKeepAlive(true).setTcpNoDelay(true),
                new PoolOptions().setHttp1MaxSize(256));
    }

    void close(@Disposes HttpClient client) {
        client.closeAndAwait();
    }
}
