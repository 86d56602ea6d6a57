package dev.redrive.testing;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.function.Function;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * A real HTTP server standing in for the provider a queue calls. Each request is recorded; what
 * it answers is decided per request by {@link #respond}.
 */
public final class Downstream implements AutoCloseable {

    public record Request(Instant at, String path, Map<String, String> headers, byte[] body) {
        public String header(String name) {
            return headers.get(name.toLowerCase());
        }

        public String jobId() {
            return header("Redrive-Job-Id");
        }
    }

    /**
     * @param streamed bytes of a body streamed instead of {@code body} (0: none); negative: as many
     *        without a Content-Length (chunked). The server writes until they are out or the client
     *        hangs up, and counts what it wrote ({@link #streamedBytes()}).
     */
    public record Answer(int status, String body, Map<String, String> headers, long delayMillis, long streamed) {
        public Answer(int status, String body, Map<String, String> headers, long delayMillis) {
            this(status, body, headers, delayMillis, 0);
        }

        /** A 200 whose body of {@code bytes} is streamed, announced with its Content-Length or not. */
        public static Answer streamed(long bytes, boolean announced) {
            return new Answer(200, "", Map.of(), 0, announced ? bytes : -bytes);
        }

        public static Answer ok() {
            return new Answer(200, "", Map.of(), 0);
        }

        public static Answer status(int status, String body) {
            return new Answer(status, body, Map.of(), 0);
        }
    }

    private final HttpServer server;
    private final List<Request> requests = new CopyOnWriteArrayList<>();
    private volatile Function<Request, Answer> responder = r -> Answer.ok();
    private final Map<String, Integer> perJob = new ConcurrentHashMap<>();
    private final java.util.concurrent.atomic.AtomicLong streamed = new java.util.concurrent.atomic.AtomicLong();

    public Downstream(int port) {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 512);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        server.setExecutor(Executors.newFixedThreadPool(32));
        server.createContext("/", this::handle);
        server.start();
    }

    public int port() {
        return server.getAddress().getPort();
    }

    public String url(String path) {
        return "http://127.0.0.1:" + port() + path;
    }

    public void respond(Function<Request, Answer> responder) {
        this.responder = responder;
    }

    public List<Request> requests() {
        return requests;
    }

    public void reset() {
        requests.clear();
        perJob.clear();
        streamed.set(0);
        responder = r -> Answer.ok();
    }

    private void handle(HttpExchange exchange) throws IOException {
        Map<String, String> headers = new ConcurrentHashMap<>();
        exchange.getRequestHeaders().forEach((k, v) -> headers.put(k.toLowerCase(), String.join(",", v)));
        // Path /early answers before reading the body, as servers that refuse a request early do.
        byte[] body = exchange.getRequestURI().getPath().equals("/early") ? new byte[0]
                : exchange.getRequestBody().readAllBytes();
        Request request = new Request(Instant.now(), exchange.getRequestURI().getPath(), headers, body);
        requests.add(request);
        Answer answer = responder.apply(request);
        if (answer.delayMillis() > 0) {
            try {
                Thread.sleep(answer.delayMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        answer.headers().forEach((k, v) -> exchange.getResponseHeaders().add(k, v));
        if (answer.streamed() != 0) {
            stream(exchange, answer);
            return;
        }
        byte[] out = answer.body().getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(answer.status(), out.length == 0 ? -1 : out.length);
        if (out.length > 0) {
            try (OutputStream os = exchange.getResponseBody()) {
                os.write(out);
            }
        }
        exchange.close();
    }

    /** Bytes written by streamed answers so far, counted as they went out. */
    public long streamedBytes() {
        return streamed.get();
    }

    private void stream(HttpExchange exchange, Answer answer) throws IOException {
        long total = Math.abs(answer.streamed());
        exchange.sendResponseHeaders(answer.status(), answer.streamed() > 0 ? total : 0);
        byte[] chunk = new byte[64 * 1024];
        java.util.Arrays.fill(chunk, (byte) 'x');
        try (OutputStream os = exchange.getResponseBody()) {
            for (long sent = 0; sent < total; sent += chunk.length) {
                int n = (int) Math.min(chunk.length, total - sent);
                os.write(chunk, 0, n);
                streamed.addAndGet(n);
            }
        } catch (IOException clientHungUp) {
            // expected: the client stops reading a reply that is too long
        } finally {
            exchange.close();
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
