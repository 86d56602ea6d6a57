package dev.redrive.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;

import com.sun.net.httpserver.HttpServer;

import dev.redrive.testing.Await;
import dev.redrive.testing.RedisServer;
import dev.redrive.testing.RedriveProcess;

/**
 * The packaged service exports its spans over OTLP (HTTP, protobuf) as soon as an endpoint is
 * configured with the standard variable, and only then: here to a small OTLP receiver, which
 * keeps each request's body and path.
 */
class TracingExportIT {

    record Export(String path, String contentType, byte[] body) {
    }

    @Test
    void spansReachTheConfiguredOtlpEndpoint() throws Exception {
        List<Export> exports = new CopyOnWriteArrayList<>();
        HttpServer receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
        receiver.createContext("/", exchange -> {
            exports.add(new Export(exchange.getRequestURI().getPath(),
                    exchange.getRequestHeaders().getFirst("Content-Type"), exchange.getRequestBody().readAllBytes()));
            exchange.getResponseHeaders().add("Content-Type", "application/x-protobuf");
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        receiver.start();
        String traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
        try (RedisServer redis = new RedisServer().start();
                RedriveProcess p = new RedriveProcess("tracing", Map.of()).env(Map.of(
                        "REDIS_URL", redis.url(),
                        "REDRIVE_QUEUES_ORDERS_HANDLER", "demo",
                        "OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:" + receiver.getAddress().getPort(),
                        "OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf",
                        "QUARKUS_OTEL_BSP_SCHEDULE_DELAY", "100ms")).start();
                RedisCli cli = new RedisCli(redis.port())) {
            p.awaitReady(Duration.ofSeconds(60));
            cli.xadd("orders", "kind", "ok", "traceparent", "00-" + traceId + "-00f067aa0ba902b7-01");
            byte[] rawTraceId = HexFormat.of().parseHex(traceId);
            Export export = Await.value("the attempt's span at the OTLP receiver", Duration.ofSeconds(30),
                    () -> exports.stream().filter(e -> OtlpBodies.contains(e.body(), "process orders".getBytes(StandardCharsets.UTF_8))
                            && OtlpBodies.contains(e.body(), rawTraceId)).findFirst().orElse(null));
            assertTrue(export.path().equals("/v1/traces"), "OTLP/HTTP traces path: " + export.path());
            assertTrue(String.valueOf(export.contentType()).startsWith("application/x-protobuf"), export.contentType());
            assertTrue(OtlpBodies.contains(export.body(), "messaging.system".getBytes(StandardCharsets.UTF_8))
                    && OtlpBodies.contains(export.body(), "redis".getBytes(StandardCharsets.UTF_8)), "messaging attributes");
            assertTrue(OtlpBodies.contains(export.body(), "redrive".getBytes(StandardCharsets.UTF_8)), "service.name redrive");
        } finally {
            receiver.stop(0);
        }
    }
}
