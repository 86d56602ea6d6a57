package dev.redrive.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.URLEncoder;
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
import dev.redrive.testing.Downstream;
import dev.redrive.testing.RedisServer;
import dev.redrive.testing.RedriveProcess;

/**
 * {@code redrive.redis.wait-replicas=1} against a real primary and replica: a replay is answered
 * 201 once the replica has it; with the replica stopped, a replay and a discard still happen on
 * the primary but are answered 503 {@code /problems/not-replicated} with Retry-After, never a
 * success a failover could take back.
 */
class WaitReplicasIT {

    private static final String DLQ = "{work}:dlq";

    @Test
    void operatorWritesWaitForTheReplicaAndSay503WhenItIsGone() throws Exception {
        try (RedisServer primary = new RedisServer().start();
                RedisServer replica = new RedisServer("--replicaof", "127.0.0.1", Integer.toString(primary.port())).start();
                RedisCli onPrimary = new RedisCli(primary.port());
                Downstream downstream = new Downstream(RedisServer.freePort())) {
            Await.until("the replica to be in sync", Duration.ofSeconds(20),
                    () -> info(onPrimary).contains("connected_slaves:1") && info(onPrimary).contains("state=online"));
            downstream.respond(r -> Downstream.Answer.status(422, "no"));
            Map<String, String> config = new HashMap<>(ApiUsers.config());
            config.putAll(Map.of("quarkus.redis.hosts", primary.url(),
                    "redrive.queues.work.handler", "http",
                    "redrive.queues.work.http.url", downstream.url("/work"),
                    "redrive.redis.wait-replicas", "1",
                    "redrive.redis.wait-timeout", "500ms"));
            try (RedriveProcess service = new RedriveProcess("wait-replicas", config).start()) {
                service.awaitReady(Duration.ofSeconds(60));
                List<String> jobs = new ArrayList<>();
                for (int i = 0; i < 3; i++) {
                    jobs.add(onPrimary.xadd("work", "payload", "{\"n\":" + i + "}"));
                }
                Await.until("three jobs parked", Duration.ofSeconds(30), () -> onPrimary.xlen(DLQ) == 3);
                List<String> parked = deadLetterIds(onPrimary);

                HttpResponse<String> confirmed = replay(service, parked.get(0));
                assertEquals(201, confirmed.statusCode(), confirmed.body());
                try (RedisCli onReplica = new RedisCli(replica.port())) {
                    assertEquals(1, onReplica.xlen(DLQ + ":audit"), "the replica has the replay when the API answers");
                }

                replica.pause(); // connected, answering nothing: no replica acknowledges
                HttpResponse<String> unconfirmed = replay(service, parked.get(1));
                assertEquals(503, unconfirmed.statusCode(), unconfirmed.body());
                assertTrue(unconfirmed.body().contains("/problems/not-replicated"), unconfirmed.body());
                assertTrue(unconfirmed.body().contains("the write happened"), unconfirmed.body());
                assertNotNull(unconfirmed.headers().firstValue("Retry-After").orElse(null));
                HttpResponse<String> discard = send(service, HttpRequest.newBuilder(uri(service, "/entries/" + parked.get(2)
                        + "?reason=gone")).DELETE());
                assertEquals(503, discard.statusCode(), discard.body());
                assertTrue(discard.body().contains("/problems/not-replicated"), discard.body());
                // Both happened on the primary: the dead letters are gone (a replayed job may be parked
                // again, under a new id), the audit trail has all three writes.
                assertEquals(List.of(), onPrimary.call("XRANGE", DLQ, parked.get(1), parked.get(1)));
                assertEquals(List.of(), onPrimary.call("XRANGE", DLQ, parked.get(2), parked.get(2)));
                assertEquals(3, onPrimary.xlen(DLQ + ":audit"));
                assertEquals(2, service.logLines("replicas confirmed it within"), service.output());
            }
        }
    }

    private static String info(RedisCli redis) {
        return RedisCli.text(redis.call("INFO", "replication"));
    }

    private static List<String> deadLetterIds(RedisCli redis) {
        List<String> ids = new ArrayList<>();
        for (Object entry : (List<?>) redis.call("XRANGE", DLQ, "-", "+")) {
            ids.add(RedisCli.text(((List<?>) entry).get(0)));
        }
        return ids;
    }

    private static HttpResponse<String> replay(RedriveProcess service, String id) throws Exception {
        return send(service, HttpRequest.newBuilder(uri(service, "/entries/" + id + "/replay"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString("{\"note\":\"it\"}")));
    }

    private static URI uri(RedriveProcess service, String path) {
        return URI.create("http://127.0.0.1:" + service.httpPort() + "/dlq/" + URLEncoder.encode(DLQ, StandardCharsets.UTF_8) + path);
    }

    private static HttpResponse<String> send(RedriveProcess service, HttpRequest.Builder request) throws Exception {
        String auth = Base64.getEncoder().encodeToString(("operator:" + ApiUsers.password("operator")).getBytes(StandardCharsets.UTF_8));
        return HttpClient.newHttpClient().send(request.header("Authorization", "Basic " + auth).timeout(Duration.ofSeconds(15)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
