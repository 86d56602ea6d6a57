package dev.redrive.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
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
import dev.redrive.testing.TestConfig;

/**
 * redrive unchanged on a three-node Redis Cluster: every script touches one hash slot (the
 * stream's tag), so parking, retries and replay work whichever node owns each stream.
 */
class RedisClusterIT {

    static final List<String> QUEUES = List.of("orders", "emails", "images");

    @Test
    void queuesOnDifferentNodesRetryParkAndReplay() throws Exception {
        try (RedisCluster cluster = RedisCluster.start(3, 0)) {
            Map<String, Integer> ownerOf = new HashMap<>();
            for (String q : QUEUES) {
                ownerOf.put(q, cluster.ownerOf(q));
            }
            assertTrue(ownerOf.values().stream().distinct().count() > 1, "the streams spread over nodes: " + ownerOf);

            TestConfig config = TestConfig.withApiUsers().set("quarkus.redis.client-type", "cluster")
                    .set("quarkus.redis.hosts", String.join(",", cluster.nodes().stream().map(RedisServer::url).toList()))
                    .set("redrive.warm-up.jobs", "2000");
            QUEUES.forEach(q -> config.queue(q).handler("demo").attempts(3).backoff("20ms").retryPoll("20ms"));
            try (RedriveProcess redrive = new RedriveProcess("cluster", config.build()).start()) {
                redrive.awaitReady(Duration.ofSeconds(60));
                assertTrue(redrive.output().contains("warm-up: 2000 jobs of redrive's own"),
                        "the warm-up runs on a cluster (its keys in one slot): " + redrive.output());
                Map<String, String> corrupt = new HashMap<>();
                for (String q : QUEUES) {
                    try (RedisCli cli = new RedisCli(ownerOf.get(q))) {
                        for (String kind : List.of("ok", "flaky", "poison")) {
                            cli.xadd(q, "kind", kind);
                        }
                        corrupt.put(q, cli.xadd(q, "kind", "corrupt", "payload", "{\"doc\":1}"));
                    }
                }
                for (String q : QUEUES) {
                    try (RedisCli cli = new RedisCli(ownerOf.get(q))) {
                        Await.until(q + ": poison and corrupt parked, the rest done", Duration.ofSeconds(30),
                                () -> cli.xlen("{" + q + "}:dlq") == 2 && cli.pending(q, "redrive") == 0);
                    }
                }
                assertEquals(6.0, Metrics.sum(redrive.managementPort(), "redrive_jobs_completed_total", ""), 0.0,
                        "ok and flaky done on every queue");

                // Replay the corrupt job of each queue with a patch that makes it succeed.
                HttpClient http = HttpClient.newHttpClient();
                String auth = "Basic " + Base64.getEncoder().encodeToString(
                        ("operator:" + ApiUsers.password("operator")).getBytes(StandardCharsets.UTF_8));
                for (String q : QUEUES) {
                    String dlqId;
                    try (RedisCli cli = new RedisCli(ownerOf.get(q))) {
                        dlqId = parkedIdOf(cli, "{" + q + "}:dlq", corrupt.get(q));
                    }
                    HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                            + redrive.httpPort() + "/dlq/%7B" + q + "%7D%3Adlq/entries/" + dlqId + "/replay"))
                            .header("Authorization", auth).header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString("{\"fields\":{\"kind\":\"ok\"},\"note\":\"cluster\"}"))
                            .build(), HttpResponse.BodyHandlers.ofString());
                    assertEquals(201, r.statusCode(), r.body());
                }
                Await.until("the replayed jobs to complete", Duration.ofSeconds(30),
                        () -> Metrics.sum(redrive.managementPort(), "redrive_jobs_completed_total", "") == 9.0);
                for (String q : QUEUES) {
                    try (RedisCli cli = new RedisCli(ownerOf.get(q))) {
                        assertEquals(1, cli.xlen("{" + q + "}:dlq"), q + ": only the poison job stays parked");
                        assertEquals(0, cli.pending(q, "redrive"));
                    }
                }

                // A listing (list.lua) and a bulk redrive (redrive-step.lua) run on the node that owns each
                // queue: the poison job is listed, moved back once, fails its three attempts again and is parked again.
                for (String q : QUEUES) {
                    String d = "http://127.0.0.1:" + redrive.httpPort() + "/dlq/%7B" + q + "%7D%3Adlq";
                    HttpResponse<String> listed = http.send(HttpRequest.newBuilder(URI.create(d + "/entries?failure=exhausted"))
                            .header("Authorization", auth).build(), HttpResponse.BodyHandlers.ofString());
                    assertEquals(200, listed.statusCode(), listed.body());
                    assertTrue(listed.body().contains("\"examined\":1") && listed.body().contains("\"originStream\":\"" + q + "\""),
                            listed.body());
                    HttpResponse<String> started = http.send(HttpRequest.newBuilder(URI.create(d + "/redrives"))
                            .header("Authorization", auth).header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString("{\"filter\":{},\"maxPerSecond\":0}")).build(),
                            HttpResponse.BodyHandlers.ofString());
                    assertEquals(202, started.statusCode(), started.body());
                    String task = started.body().replaceAll(".*\"id\":\"([^\"]+)\".*", "$1");
                    String done = Await.value(q + ": the redrive to complete", Duration.ofSeconds(30), () -> {
                        try {
                            String body = http.send(HttpRequest.newBuilder(URI.create(d + "/redrives/" + task))
                                    .header("Authorization", auth).build(), HttpResponse.BodyHandlers.ofString()).body();
                            return body.contains("\"state\":\"completed\"") ? body : null;
                        } catch (java.io.IOException | InterruptedException e) {
                            throw new IllegalStateException(e);
                        }
                    });
                    assertTrue(done.contains("\"moved\":1,"), done);
                }
                for (String q : QUEUES) {
                    try (RedisCli cli = new RedisCli(ownerOf.get(q))) {
                        Await.until(q + ": the poison job parked again after its replay", Duration.ofSeconds(30),
                                () -> cli.xlen("{" + q + "}:dlq") == 1 && cli.pending(q, "redrive") == 0
                                        && "1".equals(fieldOfOnly(cli, "{" + q + "}:dlq", "replays")));
                    }
                }
            }
        }
    }

    /** A field of the only entry of a stream, or null. */
    @SuppressWarnings("unchecked")
    private static String fieldOfOnly(RedisCli cli, String stream, String name) {
        for (Object e : (List<Object>) cli.call("XRANGE", stream, "-", "+")) {
            List<Object> fields = (List<Object>) ((List<Object>) e).get(1);
            for (int i = 0; i < fields.size(); i += 2) {
                if (name.equals(RedisCli.text(fields.get(i)))) {
                    return RedisCli.text(fields.get(i + 1));
                }
            }
        }
        return null;
    }

    @SuppressWarnings("unchecked")
    static String parkedIdOf(RedisCli cli, String dlq, String originId) {
        for (Object e : (List<Object>) cli.call("XRANGE", dlq, "-", "+")) {
            List<Object> entry = (List<Object>) e;
            List<Object> fields = (List<Object>) entry.get(1);
            for (int i = 0; i < fields.size(); i += 2) {
                if ("origin-id".equals(RedisCli.text(fields.get(i))) && originId.equals(RedisCli.text(fields.get(i + 1)))) {
                    return RedisCli.text(entry.get(0));
                }
            }
        }
        throw new AssertionError(originId + " is not parked in " + dlq);
    }
}
