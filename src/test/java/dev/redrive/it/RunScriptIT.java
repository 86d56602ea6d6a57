package dev.redrive.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import dev.redrive.testing.Await;
import dev.redrive.testing.RedisServer;

/**
 * The quick start's {@code run.sh}, as a reader runs it: with its own redis-server and the demo
 * producer, stopped with SIGTERM. The jar {@code mvn verify} just packaged is used as it is.
 */
class RunScriptIT {

    @Test
    void sigtermDrainsTheServiceThenStopsTheProducerAndRedis() throws Exception {
        int http = RedisServer.freePort();
        int management = RedisServer.freePort();
        Path log = Files.createTempFile("redrive-run-sh-", ".log");
        ProcessBuilder builder = new ProcessBuilder("bash", "run.sh").redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().remove("REDIS_URL");
        builder.environment().putAll(java.util.Map.of("RUN_BUILD", "off", "DEMO_PRODUCER", "on",
                "PORT", Integer.toString(http), "MANAGEMENT_PORT", Integer.toString(management)));
        Process script = builder.start();
        try {
            HttpClient client = HttpClient.newHttpClient();
            Await.until("run.sh's service to be ready (log: " + log + ")", Duration.ofSeconds(90), () -> {
                assertTrue(script.isAlive(), () -> "run.sh exited early:\n" + read(log));
                return ready(client, management);
            });
            Await.until("a demo job to be done", Duration.ofSeconds(30), () -> read(log).contains("demo: done"));
            Matcher redis = Pattern.compile("private redis-server at redis://127\\.0\\.0\\.1:(\\d+)").matcher(read(log));
            assertTrue(redis.find(), read(log));
            int redisPort = Integer.parseInt(redis.group(1));
            assertEquals("redis://127.0.0.1:" + redisPort, Files.readString(Path.of(".run/redis-url")).strip(),
                    "the URL the README's redis-cli command reads");
            assertTrue(read(log).contains("redis-cli -u redis://127.0.0.1:" + redisPort + " XRANGE '{demo}:dlq' - +"),
                    "the exact command, ready to copy: " + read(log));
            List<ProcessHandle> children = script.descendants().toList();
            assertTrue(children.stream().anyMatch(p -> p.info().commandLine().orElse("").contains("quarkus-run.jar")),
                    "the service runs under run.sh");

            script.destroy();
            assertTrue(script.waitFor(60, java.util.concurrent.TimeUnit.SECONDS), "run.sh exits after SIGTERM");

            children.forEach(p -> Await.until(p + " to exit", Duration.ofSeconds(5), () -> !p.isAlive()));
            for (int port : new int[] {http, management, redisPort}) {
                Await.until("port " + port + " to be free", Duration.ofSeconds(5), () -> !listening(port));
            }
            String output = read(log);
            assertTrue(output.contains("drained: every running job finished"), output);
            assertFalse(output.contains("Connection refused"), "Redis outlived the service: " + output);
            assertFalse(Files.exists(Path.of(".run/redis-url")), "no stale URL is left behind");
        } finally {
            script.descendants().forEach(ProcessHandle::destroyForcibly);
            script.destroyForcibly();
        }
    }

    private static boolean ready(HttpClient client, int port) {
        try {
            return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/q/health/ready")).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static boolean listening(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static String read(Path log) {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }
}
