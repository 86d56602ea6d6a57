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
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.redrive.deadletter.RecordField;
import dev.redrive.testing.ApiUsers;
import dev.redrive.testing.Downstream;
import dev.redrive.testing.Downstream.Answer;
import dev.redrive.testing.RedriveProcess;
import dev.redrive.testing.SkewedReplicas;

/**
 * Two replicas work one queue while its provider is down for {@link #OUTAGE} under a steady load,
 * some of the jobs refused (400) all along: each replica's breaker opens, closes (a refused probe
 * closes it too, though the provider is still down) and opens again, and closes for good once the
 * provider is back. Exactly one proposal comes of it, by redrive, holding exactly the jobs the
 * outage exhausted (no refused one: those are terminal); approving it runs each of them once, and
 * the refused ones stay parked. One replica's wall clock is an hour behind (faketime): whichever
 * of the two proposes, the outage is measured on Redis' clock.
 */
class OutageProposalIT {

    static final Duration OUTAGE = Duration.ofSeconds(20);
    /** A job every 40 ms: 25 a second, before, during and a little after the outage. */
    static final long EVERY_MILLIS = 40;
    static final String DLQ = "{work}:dlq";
    static final String DLQ_PATH = "/dlq/%7Bwork%7D%3Adlq";
    static final String PROPOSED = "redrive proposed their redrive as proposal ";

    final ObjectMapper json = new ObjectMapper();

    @Test
    void twoReplicasMakeOneProposalOfWhatTheOutageExhaustedAndItsApprovalRunsEachOnce() throws Exception {
        try (SkewedReplicas replicas = new SkewedReplicas(); RedisCli cli = new RedisCli(replicas.redis().port())) {
            AtomicBoolean down = new AtomicBoolean();
            Map<String, Integer> answered = new ConcurrentHashMap<>();
            Downstream downstream = replicas.downstream();
            downstream.respond(r -> {
                String body = new String(r.body(), StandardCharsets.UTF_8);
                if (body.contains("refused")) {
                    return Answer.status(400, "refused");
                }
                if (down.get()) {
                    return Answer.status(503, "provider down");
                }
                answered.merge(body, 1, Integer::sum);
                return Answer.ok();
            });
            Map<String, String> queue = Map.of(
                    "redrive.queues.work.handler", "http",
                    "redrive.queues.work.http.url", downstream.url("/work"),
                    "redrive.queues.work.attempts", "2",
                    "redrive.queues.work.backoff", "100ms",
                    "redrive.queues.work.retry-poll", "100ms",
                    "redrive.queues.work.concurrency", "8",
                    "redrive.queues.work.http.circuit-breaker.window", "10",
                    "redrive.queues.work.http.circuit-breaker.delay", "1s");
            RedriveProcess onTime = replicas.onTime("on-time", queue);
            RedriveProcess skewed = replicas.skewed("skewed", queue);
            List<RedriveProcess> both = List.of(onTime, skewed);

            Set<String> refused = new HashSet<>();
            Set<String> jobs = new HashSet<>();
            long n = 0;
            for (Phase phase : List.of(new Phase(false, Duration.ofSeconds(3)), new Phase(true, OUTAGE),
                    new Phase(false, Duration.ofSeconds(2)))) {
                down.set(phase.down());
                for (long end = System.nanoTime() + phase.length().toNanos(); System.nanoTime() < end; n++) {
                    String body = n % 10 == 3 ? "{\"n\": " + n + ", \"refused\": true}" : "{\"n\": " + n + "}";
                    (n % 10 == 3 ? refused : jobs).add(body);
                    cli.xadd("work", "payload", body);
                    Thread.sleep(EVERY_MILLIS);
                }
            }
            for (RedriveProcess replica : both) {
                replica.await("a replica to tell the end of its outage, if it had one", Duration.ofSeconds(30),
                        () -> replica.logLines("queue work paused") == 0 || replica.logLines("queue work: its outage") > 0);
            }
            onTime.await("every job done or parked", Duration.ofSeconds(30), () -> cli.pending("work", "redrive") == 0);

            assertTrue(both.stream().allMatch(r -> r.logLines("queue work paused") > 0), "both breakers opened");
            assertEquals(1, both.stream().mapToLong(r -> r.logLines(PROPOSED)).sum(), "one replica proposed");
            JsonNode proposals = get(onTime, DLQ_PATH + "/proposals").get("items");
            assertEquals(1, proposals.size(), proposals.toString());
            JsonNode proposal = proposals.get(0);
            assertEquals("redrive", proposal.get("proposedBy").asText());
            Map<String, Set<String>> parked = parkedByFailure(cli);
            Set<String> exhausted = parked.getOrDefault("exhausted", Set.of());
            assertTrue(!exhausted.isEmpty(), "the outage exhausted jobs");
            Set<String> ids = new HashSet<>();
            proposal.get("filter").get("ids").forEach(id -> ids.add(id.asText()));
            assertEquals(exhausted, ids, "the proposal holds exactly the jobs the outage exhausted");
            assertEquals(refused.size(), parked.get("terminal").size(), "every refused job parked as terminal");
            List<String> exhaustedBodies = bodies(cli, exhausted);
            exhaustedBodies.forEach(body -> assertEquals(null, answered.get(body), body + " ran before the approval"));

            String approve = DLQ_PATH + "/proposals/" + proposal.get("id").asText() + "/approve";
            String task = post(skewed, "approver", approve, "{\"note\": \"provider back\"}", 202).get("task").asText();
            onTime.await("the approved redrive to complete", Duration.ofSeconds(60),
                    () -> "completed".equals(get(onTime, DLQ_PATH + "/redrives/" + task).get("state").asText()));
            assertEquals(exhausted.size(), get(onTime, DLQ_PATH + "/redrives/" + task).get("moved").asLong());
            onTime.await("the redriven jobs to run", Duration.ofSeconds(30), () -> cli.pending("work", "redrive") == 0
                    && exhaustedBodies.stream().allMatch(answered::containsKey));

            Map<String, Integer> once = new HashMap<>();
            jobs.forEach(body -> once.put(body, 1));
            assertEquals(once, answered, "every job that is not refused ran once, those the outage exhausted after the approval");
            assertEquals(Map.of("terminal", parked.get("terminal")), parkedByFailure(cli), "only the refused ones stay parked");
            System.out.printf("OutageProposalIT: %d jobs, %d refused, %d exhausted by the outage and redriven once%n",
                    n, refused.size(), exhausted.size());
        }
    }

    /** A stretch of the run: the provider down or up, for {@code length}. */
    record Phase(boolean down, Duration length) {
    }

    /** The dead letters of queue work, their ids by failure kind. */
    private static Map<String, Set<String>> parkedByFailure(RedisCli cli) {
        Map<String, Set<String>> byKind = new HashMap<>();
        for (Object entry : (List<?>) cli.call("XRANGE", DLQ, "-", "+")) {
            List<?> e = (List<?>) entry;
            Map<String, String> fields = fields((List<?>) e.get(1));
            byKind.computeIfAbsent(fields.get(RecordField.FAILURE.wireName()), k -> new HashSet<>())
                    .add(RedisCli.text(e.get(0)));
        }
        return byKind;
    }

    /** The payloads parked as these dead letters. */
    private static List<String> bodies(RedisCli cli, Set<String> ids) {
        List<String> bodies = new ArrayList<>();
        for (String id : ids) {
            List<?> entry = (List<?>) ((List<?>) cli.call("XRANGE", DLQ, id, id)).get(0);
            bodies.add(fields((List<?>) entry.get(1)).get(RecordField.snapshotField("payload")));
        }
        return bodies;
    }

    private static Map<String, String> fields(List<?> flat) {
        Map<String, String> fields = new HashMap<>();
        for (int i = 0; i < flat.size(); i += 2) {
            fields.put(RedisCli.text(flat.get(i)), RedisCli.text(flat.get(i + 1)));
        }
        return fields;
    }

    private JsonNode get(RedriveProcess service, String path) {
        return send(service, "viewer", HttpRequest.newBuilder(uri(service, path)).GET(), 200);
    }

    private JsonNode post(RedriveProcess service, String user, String path, String body, int status) {
        return send(service, user, HttpRequest.newBuilder(uri(service, path)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)), status);
    }

    private JsonNode send(RedriveProcess service, String user, HttpRequest.Builder request, int status) {
        String auth = Base64.getEncoder().encodeToString((user + ":" + ApiUsers.password(user)).getBytes(StandardCharsets.UTF_8));
        try {
            HttpResponse<String> answer = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build().send(
                    request.header("Authorization", "Basic " + auth).timeout(Duration.ofSeconds(30)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(status, answer.statusCode(), answer.body());
            return json.readTree(answer.body());
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static URI uri(RedriveProcess service, String path) {
        return URI.create("http://127.0.0.1:" + service.httpPort() + path);
    }
}
