package dev.redrive.bench;

import java.util.Map;

import io.vertx.core.http.HttpServer;

/** 6. The success path with the HTTP handler against a local no-op HTTP server (and, with httpceiling, its ceiling). */
final class HttpPath {

    /**
     * Calls before the HTTP handler's and the HTTP ceiling's timed runs, the same for both: with
     * 20,000 the first timed run of each still took about twice the CPU per call of the second
     * (the JIT was not done), so the medians mixed a cold run with a warm one.
     */
    static final int HTTP_WARM_UP = 60_000;

    private final Harness h;

    HttpPath(Harness h) {
        this.h = h;
    }

    /** @param withCeiling the HTTP ceiling's reps interleaved with the handler's ({@link Ceiling}) */
    void run(boolean withCeiling) throws Exception {
        int n = Math.max(10, h.jobs / 4);
        Gate gate = new Gate(h);
        HttpServer server = noopServer(h);
        h.fresh();
        // Concurrency 200, not the bench's default: the outbound client lets 64 calls run at once
        // (http.bulkhead) and queues the rest; far more jobs than that would only wait in its queue.
        try (Service s = Service.start(h, "http", "http", Map.of("backoff", "10m", "attempts", "3", "concurrency", "200",
                "http.url", "http://127.0.0.1:" + server.actualPort() + "/jobs"));
                Ceiling ceiling = withCeiling ? Ceiling.start(h, server.actualPort(), n, HTTP_WARM_UP) : null) {
            gate.warmUp(s, HTTP_WARM_UP);
            for (int rep = 1; rep <= h.reps; rep++) {
                gate.stage(n);
                gate.drain(s, "HTTP handler against a local no-op server", n, 0, 0, rep);
                if (ceiling != null) {
                    ceiling.rep(rep);
                }
            }
            if (ceiling != null) {
                ceiling.compare();
            }
        } finally {
            server.close();
        }
    }

    /** The no-op downstream: 204 after reading the body. */
    static HttpServer noopServer(Harness h) throws Exception {
        return h.redis.vertx().createHttpServer()
                .requestHandler(req -> req.body().onComplete(body -> req.response().setStatusCode(204).end()))
                .listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get();
    }
}
