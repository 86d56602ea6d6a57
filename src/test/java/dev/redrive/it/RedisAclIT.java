package dev.redrive.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.redrive.testing.ApiUsers;
import dev.redrive.testing.Await;
import dev.redrive.testing.RedisServer;
import dev.redrive.testing.RedriveProcess;

/**
 * redrive as the least-privilege ACL user of docs/REDIS.md, beside a {@code default} user that
 * may do anything: every connection authenticates as that user, jobs, retries, parking, a replay
 * and a bulk redrive work with exactly its rule, a wrong password and a missing permission refuse
 * the start, and a permission revoked at run time is a 503, not a 500, and readiness DOWN naming
 * the command until it is given back.
 */
class RedisAclIT {

    static final String PASSWORD = "s3cret-acl-pw";

    @Test
    void theLeastPrivilegeUserOfTheDocsRunsEverythingAndNothingLess() throws Exception {
        try (RedisServer redis = new RedisServer().start(); RedisCli cli = new RedisCli(redis.port())) {
            List<String> rule = new ArrayList<>(List.of(docsRule().replace("PASSWORD", PASSWORD).split(" ")));
            assertEquals("OK", RedisCli.text(cli.call(rule.toArray())));

            try (RedriveProcess wrong = process(redis, "redrive", "not-the-password", "acl-wrong")) {
                assertNotEquals(0, wrong.awaitExit(Duration.ofSeconds(60)));
                assertTrue(wrong.output().contains("WRONGPASS"), wrong.output());
            }
            cli.call("ACL", "SETUSER", "lesser", "on", ">" + PASSWORD);
            List<String> lesser = new ArrayList<>(rule.subList(3, rule.size()));
            lesser.removeIf(w -> w.startsWith(">") || w.equals("+xtrim") || w.equals("~{orders}:*"));
            lesser.add(0, "lesser");
            lesser.addAll(0, List.of("ACL", "SETUSER"));
            lesser.add(">" + PASSWORD);
            assertEquals("OK", RedisCli.text(cli.call(lesser.toArray())));
            try (RedriveProcess refused = process(redis, "lesser", PASSWORD, "acl-lesser")) {
                assertNotEquals(0, refused.awaitExit(Duration.ofSeconds(60)));
                assertTrue(refused.output().contains("redrive's Redis user may not run XTRIM on orders, any command on"
                        + " {orders}:not-before"), refused.output());
            }

            try (RedriveProcess redrive = process(redis, "redrive", PASSWORD, "acl")) {
                redrive.awaitReady(Duration.ofSeconds(60));
                assertTrue(redrive.output().contains("warm-up: 2000 jobs of redrive's own"),
                        "the warm-up runs as the least-privilege user: " + redrive.output());
                String ours = "id=" + cli.call("CLIENT", "ID") + " ";
                // A connection caught between its connect and its first command (HELLO with AUTH)
                // shows cmd=NULL and the default user: it must run as redrive's user, or be gone,
                // a moment later. One that ran any command as another user fails at once.
                Await.until("every connection of redrive runs as its user", Duration.ofSeconds(10), () -> {
                    boolean all = true;
                    for (String client : RedisCli.text(cli.call("CLIENT", "LIST")).split("\n")) {
                        if (client.isBlank() || client.startsWith(ours) || client.contains(" user=redrive ")) {
                            continue;
                        }
                        assertTrue(client.contains(" cmd=NULL "), "every connection of redrive runs as its user: " + client);
                        all = false;
                    }
                    return all;
                });
                cli.xadd("orders", "kind", "ok");
                cli.xadd("orders", "kind", "flaky");
                cli.xadd("orders", "kind", "poison");
                String corrupt = cli.xadd("orders", "kind", "corrupt", "payload", "{\"doc\":1}");
                Await.until("ok and flaky done, poison and corrupt parked", Duration.ofSeconds(30),
                        () -> cli.xlen("{orders}:dlq") == 2 && cli.pending("orders", "redrive") == 0);

                HttpClient http = HttpClient.newHttpClient();
                String auth = "Basic " + Base64.getEncoder().encodeToString(
                        ("operator:" + ApiUsers.password("operator")).getBytes(StandardCharsets.UTF_8));
                String dlq = "http://127.0.0.1:" + redrive.httpPort() + "/dlq/%7Borders%7D%3Adlq";
                String listed = send(http, HttpRequest.newBuilder(URI.create(dlq + "/entries"))
                        .header("Authorization", auth).build(), 200);
                assertTrue(listed.contains(corrupt), listed);
                String id = RedisClusterIT.parkedIdOf(cli, "{orders}:dlq", corrupt);
                send(http, HttpRequest.newBuilder(URI.create(dlq + "/entries/" + id + "/replay"))
                        .header("Authorization", auth).header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString("{\"fields\":{\"kind\":\"ok\"},\"note\":\"acl\"}")).build(),
                        201);
                String started = send(http, HttpRequest.newBuilder(URI.create(dlq + "/redrives"))
                        .header("Authorization", auth).header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString("{\"filter\":{},\"maxPerSecond\":0}")).build(), 202);
                String task = started.replaceAll(".*\"id\":\"([^\"]+)\".*", "$1");
                Await.until("the redrive to complete and the poison job to be parked again", Duration.ofSeconds(30),
                        () -> send(http, HttpRequest.newBuilder(URI.create(dlq + "/redrives/" + task))
                                .header("Authorization", auth).build(), 200).contains("\"state\":\"completed\"")
                                && cli.xlen("{orders}:dlq") == 1 && cli.pending("orders", "redrive") == 0);
                assertEquals(3.0, Metrics.sum(redrive.managementPort(), "redrive_jobs_completed_total", ""), 0.0,
                        "ok, flaky and the replayed job done");

                cli.call("ACL", "SETUSER", "redrive", "-evalsha", "-eval");
                HttpResponse<String> revoked = http.send(HttpRequest.newBuilder(URI.create(dlq + "/entries"))
                        .header("Authorization", auth).build(), HttpResponse.BodyHandlers.ofString());
                assertEquals(503, revoked.statusCode(), revoked.body());
                assertTrue(revoked.headers().firstValue("Retry-After").isPresent());
                assertTrue(revoked.body().contains("docs/REDIS.md"), revoked.body());
                // PING still answers, but no job can be claimed or parked: not ready, naming what is refused.
                redrive.await("readiness DOWN while Redis refuses scripts", Duration.ofSeconds(30),
                        () -> redrive.readiness() == 503);
                String down = redrive.readinessBody();
                assertTrue(down.contains("Redis refuses EVALSHA to redrive's user") && down.contains("docs/REDIS.md"), down);

                cli.call("ACL", "SETUSER", "redrive", "+evalsha", "+eval");
                redrive.await("readiness UP once a script runs again (the gauges run one every interval)",
                        Duration.ofSeconds(30), () -> redrive.readiness() == 200);
            }
        }
    }

    private static RedriveProcess process(RedisServer redis, String user, String password, String name) {
        Map<String, String> config = new HashMap<>(ApiUsers.config());
        config.put("redrive.queues.orders.handler", "demo");
        config.put("redrive.queues.orders.attempts", "3");
        config.put("redrive.queues.orders.backoff", "20ms");
        config.put("redrive.queues.orders.retry-poll", "20ms");
        // The warm-up's keys and commands are inside the docs' rule too.
        config.put("redrive.warm-up.jobs", "2000");
        return new RedriveProcess(name, config)
                .env(Map.of("REDIS_URL", "redis://" + user + ":" + password + "@127.0.0.1:" + redis.port())).start();
    }

    /** The ACL SETUSER line of docs/REDIS.md: the test grants exactly what the docs say. */
    static String docsRule() throws java.io.IOException {
        return Files.readString(Path.of("docs/REDIS.md")).lines().filter(l -> l.startsWith("ACL SETUSER redrive "))
                .findFirst().orElseThrow();
    }

    private static String send(HttpClient http, HttpRequest request, int status) {
        try {
            HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
            assertEquals(status, r.statusCode(), r.body());
            return r.body();
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
