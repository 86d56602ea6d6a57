package dev.redrive.deploy;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.redrive.testing.Await;
import dev.redrive.testing.RedisServer;

/**
 * Debian's prometheus as a private process for one test: its own config and data directory, a
 * free loopback port, 1 s scrape and evaluation intervals. Read through its HTTP API.
 */
final class PrometheusServer implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path dir;
    private final int port = RedisServer.freePort();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private Process process;

    /**
     * @param binary the prometheus executable
     * @param target host:port of redrive's management interface
     * @param rulesFile written into the config as the only rule file (a copy in this server's dir)
     */
    PrometheusServer(Path binary, String target, java.util.function.Function<Path, Path> rulesFile) {
        try {
            dir = Files.createTempDirectory("redrive-prometheus-");
            Path rules = rulesFile.apply(dir);
            Files.writeString(dir.resolve("prometheus.yml"), """
                    global:
                      scrape_interval: 1s
                      scrape_timeout: 1s
                      evaluation_interval: 1s
                    rule_files:
                      - %s
                    scrape_configs:
                      - job_name: redrive
                        metrics_path: /q/metrics
                        static_configs:
                          - targets: ["%s"]
                            labels:
                              namespace: e2e
                    """.formatted(rules.getFileName(), target));
            process = new ProcessBuilder(List.of(binary.toString(),
                    "--config.file=" + dir.resolve("prometheus.yml"),
                    "--storage.tsdb.path=" + dir.resolve("data"),
                    "--web.listen-address=127.0.0.1:" + port,
                    "--web.console.templates=" + dir, "--web.console.libraries=" + dir))
                    .directory(dir.toFile()).redirectErrorStream(true)
                    .redirectOutput(dir.resolve("prometheus.log").toFile()).start();
        } catch (IOException e) {
            throw new IllegalStateException("could not start prometheus", e);
        }
        Await.until("prometheus to be ready on port " + port + log(), Duration.ofSeconds(30), () -> {
            if (!process.isAlive()) {
                throw new AssertionError("prometheus exited with " + process.exitValue() + log());
            }
            return get("/-/ready").map(r -> r.statusCode() == 200).orElse(false);
        });
    }

    int port() {
        return port;
    }

    /** The data of an instant query, e.g. {@code up{job="redrive"}}: an array of {metric, value}. */
    JsonNode query(String promql) {
        return api("/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8));
    }

    /** Alerts pending or firing now, as /api/v1/alerts lists them. */
    List<JsonNode> alerts() {
        List<JsonNode> alerts = new ArrayList<>();
        api("/api/v1/alerts").path("alerts").forEach(alerts::add);
        return alerts;
    }

    /** Every metric name Prometheus has stored. */
    List<String> metricNames() {
        List<String> names = new ArrayList<>();
        api("/api/v1/label/__name__/values").forEach(n -> names.add(n.asText()));
        return names;
    }

    private JsonNode api(String path) {
        HttpResponse<String> r = get(path).orElseThrow(() -> new AssertionError("prometheus did not answer " + path + log()));
        try {
            JsonNode body = JSON.readTree(r.body());
            if (!"success".equals(body.path("status").asText())) {
                throw new AssertionError("prometheus " + path + ": " + r.body());
            }
            return body.path("data");
        } catch (IOException e) {
            throw new AssertionError("prometheus " + path + " answered " + r.body(), e);
        }
    }

    private java.util.Optional<HttpResponse<String>> get(String path) {
        try {
            HttpRequest req = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                    .timeout(Duration.ofSeconds(5)).GET().build();
            return java.util.Optional.of(http.send(req, HttpResponse.BodyHandlers.ofString()));
        } catch (IOException e) {
            return java.util.Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return java.util.Optional.empty();
        }
    }

    String log() {
        try {
            Path log = dir.resolve("prometheus.log");
            if (!Files.exists(log)) {
                return "";
            }
            List<String> lines = Files.readAllLines(log);
            return "\n--- prometheus.log (tail) ---\n" + String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        } catch (IOException e) {
            return "";
        }
    }

    @Override
    public void close() {
        if (process != null) {
            process.destroy();
            try {
                if (!process.waitFor(10, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        Tools.deleteTree(dir);
    }
}
