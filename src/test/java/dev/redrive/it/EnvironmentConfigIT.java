package dev.redrive.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.redrive.testing.ApiUsers;
import dev.redrive.testing.Await;
import dev.redrive.testing.RedisServer;
import dev.redrive.testing.RedriveProcess;

/**
 * Configuration the way deploy/k8s gives it: environment variables only (the ConfigMap's queue and
 * source-document variables, the Secret's hashed operator users).
 */
class EnvironmentConfigIT {

    @Test
    void queuesAndOperatorUsersComeFromTheEnvironment() throws Exception {
        try (RedisServer redis = new RedisServer().start();
                RedriveProcess p = new RedriveProcess("env", Map.of()).env(Map.of(
                        "REDIS_URL", redis.url(),
                        "JOB_ATTEMPTS", "2",
                        "REDRIVE_QUEUES_ORDERS_HANDLER", "demo",
                        "QUARKUS_SECURITY_USERS_EMBEDDED_USERS_ALICE", ApiUsers.hash("alice", "s3cret"),
                        "QUARKUS_SECURITY_USERS_EMBEDDED_ROLES_ALICE", "dlq-viewer")).start()) {
            p.awaitReady(Duration.ofSeconds(60));
            HttpClient http = HttpClient.newHttpClient();
            URI dlq = URI.create("http://127.0.0.1:" + p.httpPort() + "/dlq");
            String alice = "Basic " + Base64.getEncoder().encodeToString("alice:s3cret".getBytes(StandardCharsets.UTF_8));
            HttpResponse<String> ok = http.send(HttpRequest.newBuilder(dlq).header("Authorization", alice).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, ok.statusCode(), ok.body());
            assertEquals(true, ok.body().contains("{orders}:dlq"), ok.body());
            HttpResponse<String> wrong = http.send(HttpRequest.newBuilder(dlq).header("Authorization",
                    "Basic " + Base64.getEncoder().encodeToString("alice:guess".getBytes(StandardCharsets.UTF_8))).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(401, wrong.statusCode());
            // Readiness counts the queue once its worker is in place (Workers.startWhenGroupExists), a
            // moment before that worker's start-up line is written: wait for the line rather than look once.
            try {
                Await.until("the queue's start-up line with its 2 attempts", Duration.ofSeconds(20),
                        () -> p.output().contains("queue orders: reading orders as redrive/") && p.output().contains("2 attempts"));
            } catch (AssertionError e) {
                throw new AssertionError(e.getMessage() + ":\n" + p.output(), e);
            }
        }
    }
}
