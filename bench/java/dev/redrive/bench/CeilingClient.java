package dev.redrive.bench;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;

/** The HTTP ceiling's client JVM ({@link Ceiling} starts it): the HTTP handler's client, nothing else. */
public final class CeilingClient {

    static final int IN_FLIGHT = 64; // the HTTP handler's bulkhead (redrive.queues.<q>.http.bulkhead)

    private CeilingClient() {
    }

    /**
     * The ceiling client's JVM: "http-client PORT N WARM"; prints READY after the warm-up, then for
     * each line on stdin "CEILING seconds cpu-us-per-call rss-peak-mb" of n calls, until EOF.
     */
    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[1]), n = Integer.parseInt(args[2]), warm = Integer.parseInt(args[3]);
        Vertx vertx = Vertx.vertx();
        // as dev.redrive.http.OutboundHttp builds the HTTP handler's client
        HttpClient client = vertx.createHttpClient(new HttpClientOptions().setKeepAlive(true).setTcpNoDelay(true),
                new PoolOptions().setHttp1MaxSize(256));
        String url = "http://127.0.0.1:" + port + "/jobs";
        calls(client, url, warm);
        System.out.println("READY");
        System.out.flush();
        var stdin = new java.io.BufferedReader(new java.io.InputStreamReader(System.in));
        while (stdin.readLine() != null) {
            long cpu0 = cpuNanos();
            double seconds = calls(client, url, n);
            System.out.printf(Locale.ROOT, "CEILING %.3f %.2f %.1f%n", seconds, (cpuNanos() - cpu0) / 1000.0 / n,
                    peakRss());
            System.out.flush();
        }
        vertx.close().toCompletionStage().toCompletableFuture().get();
    }

    /** n POSTs, 64 outstanding, each like the HTTP handler's (a small JSON body, the same six headers). */
    static double calls(HttpClient client, String url, int n) throws Exception {
        AtomicLong sent = new AtomicLong(), done = new AtomicLong(), failed = new AtomicLong();
        CompletableFuture<Void> finished = new CompletableFuture<>();
        Runnable[] next = new Runnable[1];
        next[0] = () -> {
            long i = sent.getAndIncrement();
            if (i >= n) {
                return;
            }
            String id = "bench/1764570000000-" + i;
            RequestOptions o = new RequestOptions().setMethod(HttpMethod.POST).setAbsoluteURI(url).setIdleTimeout(10_000)
                    .putHeader("Content-Type", "application/json").putHeader("Redrive-Job-Id", id)
                    .putHeader("Redrive-Stream", "bench").putHeader("Redrive-Job", "bench")
                    .putHeader("Redrive-Attempt", "1").putHeader("Redrive-Max-Attempts", "3")
                    .putHeader("Idempotency-Key", id);
            client.request(o).compose(req -> req.send(Buffer.buffer("{\"job\":" + i + "}")))
                    .compose(resp -> resp.body().map(b -> resp.statusCode()))
                    .onComplete(ar -> {
                        if (ar.failed() || ar.result() >= 300) {
                            failed.incrementAndGet();
                        }
                        if (done.incrementAndGet() == n) {
                            finished.complete(null);
                        } else {
                            next[0].run();
                        }
                    });
        };
        long t0 = System.nanoTime();
        for (int k = 0; k < IN_FLIGHT; k++) {
            next[0].run();
        }
        finished.get(300, TimeUnit.SECONDS);
        double seconds = (System.nanoTime() - t0) / 1e9;
        if (failed.get() > 0) {
            throw new IllegalStateException(failed.get() + " calls failed");
        }
        return seconds;
    }

    static long cpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    static double peakRss() throws Exception {
        return Figures.rssOf(Path.of("/proc/self/status"), "VmHWM:");
    }
}
