package dev.redrive.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.redrive.redis.RedisKeys;
import dev.redrive.testing.ApiUsers;
import dev.redrive.testing.Downstream;
import dev.redrive.testing.Downstream.Answer;
import dev.redrive.testing.RedriveProcess;
import dev.redrive.testing.SkewedReplicas;

/**
 * Replicas whose clocks disagree agree on what is due, because the time of every decision two of
 * them share is Redis' (issue 34, item 5). One replica's wall clock is an hour behind, under
 * Debian's faketime ({@link SkewedReplicas}).
 */
class ClockSkewIT {

    /** The provider's Retry-After: long enough that the replica that was told it is gone before it is due. */
    static final String RETRY_AFTER_SECONDS = "5";

    /**
     * A replica an hour behind held every Retry-After retry an hour late: claim.lua compared the
     * not-before the on-time replica wrote with the claiming replica's clock.
     */
    @Test
    void aReplicaWhoseClockIsBehindRunsAnotherReplicasDueRetryOnTime() throws Exception {
        try (SkewedReplicas replicas = new SkewedReplicas(); RedisCli cli = new RedisCli(replicas.redis().port())) {
            Downstream downstream = replicas.downstream();
            downstream.respond(r -> "1".equals(r.header("Redrive-Attempt"))
                    ? new Answer(503, "busy", Map.of("Retry-After", RETRY_AFTER_SECONDS), 0)
                    : Answer.ok());
            Map<String, String> queue = Map.of(
                    "redrive.queues.work.handler", "http",
                    "redrive.queues.work.http.url", downstream.url("/work"),
                    "redrive.queues.work.attempts", "3",
                    "redrive.queues.work.backoff", "10ms",
                    "redrive.queues.work.retry-poll", "100ms",
                    "redrive.gauge-interval", "200ms");

            RedriveProcess onTime = replicas.onTime("on-time", queue);
            String id = cli.xadd("work", "payload", "{}");
            onTime.await("the job handed to the retry consumer with its Retry-After", Duration.ofSeconds(30),
                    () -> "redrive-retry".equals(owner(cli, id)) && cli.call("HGET", RedisKeys.notBefore("work"), id) != null);
            onTime.terminate(Duration.ofSeconds(30));
            assertEquals(1, downstream.requests().size(), "the on-time replica stopped before the retry was due");

            RedriveProcess skewed = replicas.skewed("skewed", queue);
            skewed.await("the replica an hour behind to run the retry once its Retry-After passed",
                    Duration.ofSeconds(60), () -> downstream.requests().size() == 2 && cli.pending("work", "redrive") == 0);
            List<String> attempts = downstream.requests().stream().map(r -> r.header("Redrive-Attempt")).toList();
            assertEquals(List.of("1", "2"), attempts);
            assertEquals(0, cli.xlen("{work}:dlq"));
        }
    }

    /**
     * A replica an hour behind approved a proposal that had expired, and dated its decision before
     * the proposal: proposal-approve.lua compared expiry with, and wrote, the caller's clock.
     */
    @Test
    void aReplicaWhoseClockIsBehindCannotApproveAnExpiredProposalNorDecideBeforeItWasMade() throws Exception {
        try (SkewedReplicas replicas = new SkewedReplicas(); RedisCli cli = new RedisCli(replicas.redis().port())) {
            Map<String, String> queue = Map.of("redrive.queues.work.handler", "demo");
            RedriveProcess onTime = replicas.onTime("on-time", queue);
            RedriveProcess skewed = replicas.skewed("skewed", queue);
            String proposals = "/dlq/%7Bwork%7D%3Adlq/proposals";

            JsonNode waiting = post(onTime, "automation", proposals, "{\"filter\": {}}", 201);
            JsonNode approved = post(skewed, "operator", proposals + "/" + waiting.get("id").asText() + "/approve", "{}", 202);
            assertFalse(Instant.parse(approved.get("decidedAt").asText()).isBefore(Instant.parse(approved.get("proposedAt").asText())),
                    approved.toString());

            // Its time runs out on Redis' clock (as redrive.proposals.ttl would): the skewed replica sees it expired.
            String expired = post(onTime, "automation", proposals, "{\"filter\": {}}", 201).get("id").asText();
            List<?> time = (List<?>) cli.call("TIME");
            long now = Long.parseLong(RedisCli.text(time.get(0))) * 1000 + Long.parseLong(RedisCli.text(time.get(1))) / 1000;
            cli.checked("HSET", RedisKeys.proposal("{work}:dlq", expired), "expires-at", Long.toString(now));
            assertEquals("/problems/proposal-decided",
                    post(skewed, "operator", proposals + "/" + expired + "/approve", "{}", 409).get("type").asText());
            assertEquals(4, cli.xlen(RedisKeys.audit("{work}:dlq")),
                    "audited: two proposals, one approval and the redrive it started; the refused approval wrote nothing");
        }
    }

    private static JsonNode post(RedriveProcess service, String user, String path, String body, int status) throws Exception {
        String auth = Base64.getEncoder().encodeToString((user + ":" + ApiUsers.password(user)).getBytes(StandardCharsets.UTF_8));
        HttpResponse<String> answer = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + service.httpPort() + path)).header("Authorization", "Basic " + auth)
                .header("Content-Type", "application/json").timeout(Duration.ofSeconds(30))
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(status, answer.statusCode(), answer.body());
        return new ObjectMapper().readTree(answer.body());
    }

    /** Who holds the pending entry {@code id} of queue work, or null when it is not pending. */
    private static String owner(RedisCli cli, String id) {
        List<?> pending = (List<?>) cli.call("XPENDING", "work", "redrive", id, id, "1");
        return pending.isEmpty() ? null : RedisCli.text(((List<?>) pending.get(0)).get(1));
    }
}
