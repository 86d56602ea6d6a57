package dev.redrive.api;

import static dev.redrive.api.DeadLetterApiTest.as;
import static dev.redrive.api.DeadLetterApiTest.problem;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.redrive.deadletter.RecordField;
import dev.redrive.testing.Await;
import dev.redrive.testing.DeadLetterSeed;
import dev.redrive.testing.StallableRedisResource;
import dev.redrive.testing.TestConfig;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.config.HttpClientConfig;
import io.restassured.config.RestAssuredConfig;
import io.restassured.response.ValidatableResponse;
import io.restassured.specification.RequestSpecification;

/**
 * Redis frozen (SIGSTOP), full (maxmemory with noeviction) or gone: every API call answers a 503
 * problem with Retry-After within its bound instead of hanging or leaking Redis' text, readiness
 * says so within a second, and everything answers again once Redis is back.
 */
@QuarkusTest
@WithTestResource(StallableRedisResource.class)
@TestProfile(RedisOutageTest.Profile.class)
class RedisOutageTest {

    static final String D = DeadLetterApiTest.D;
    static final String DLQ = DeadLetterApiTest.DLQ;
    /** Far above the 2s Redis limit of the profile: a request that gets here hung. */
    static final int CEILING_MS = 15_000;
    /** Kubernetes' readiness probe gives up after 3s (deploy/); readiness must answer well before. */
    static final int PROBE_CEILING_MS = 3_000;

    public static class Profile implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return TestConfig.withApiUsers().queue("jobs").and()
                    .set("redrive.replay.allowed-streams", "{jobs}back")
                    .set("redrive.redis-timeout", "2s")
                    // Enough reads in flight that a freeze makes the pool grow (the read limit would answer 503 busy first).
                    .set("redrive.reads.concurrent", "32")
                    .set("redrive.consumer-name", "outage-worker").build();
        }
    }

    @Inject
    RedisDataSource redis;

    String parked;

    @BeforeEach
    void park() {
        parked = DeadLetterSeed.from("{jobs}back", "1-0").with(RecordField.JOB, "outage")
                .with(RecordField.FINGERPRINT, "ffffffffffff").with(RecordField.DEAD_AT, "2026-01-01T00:00:00Z")
                .snapshot("payload", "x").park(redis, DLQ);
    }

    static RequestSpecification bounded(RequestSpecification r, int ceilingMs) {
        return r.config(RestAssuredConfig.config().httpClient(HttpClientConfig.httpClientConfig()
                .setParam("http.socket.timeout", ceilingMs).setParam("http.connection.timeout", ceilingMs)));
    }

    static void unavailable(ValidatableResponse r) {
        problem(r, 503);
        r.header("Retry-After", notNullValue()).body("type", equalTo("/problems/redis-unavailable"));
    }

    /**
     * Every kind of call, each answering within the ceiling. The writes name an entry that was never
     * parked: a frozen Redis runs them once it thaws, and they must change nothing another test sees.
     */
    void everyCallAnswers503() {
        Map<String, Function<RequestSpecification, ValidatableResponse>> calls = Map.of(
                "summary", r -> r.get("/dlq").then(),
                "listing", r -> r.get(D + "/entries").then(),
                "entry", r -> r.get(D + "/entries/" + parked).then(),
                "value", r -> r.get(D + "/entries/" + parked + "/fields/payload").then(),
                "audit", r -> r.get(D + "/audit").then(),
                "replay", r -> r.post(D + "/entries/1-1/replay").then(),
                "discard", r -> r.delete(D + "/entries/1-1?reason=outage").then(),
                "redrive", r -> r.contentType("application/json").body("{\"dryRun\": true}").post(D + "/redrives").then(),
                "redrive status", r -> r.get(D + "/redrives/0c1d6b0e-6c57-4a3c-9b43-0d6f5c2a0f11").then());
        calls.forEach((name, call) -> unavailable(call.apply(bounded(as("operator"), CEILING_MS))));
    }

    static ValidatableResponse readiness() {
        int port = ConfigProvider.getConfig().getValue("quarkus.management.test-port", Integer.class);
        return bounded(given().port(port), PROBE_CEILING_MS).get("/q/health/ready").then();
    }

    void awaitRecovery() {
        Await.until("readiness to be UP again", Duration.ofSeconds(30), () -> {
            try {
                return readiness().extract().statusCode() == 200;
            } catch (RuntimeException stillDown) {
                return false;
            }
        });
        as("viewer").get(D + "/entries/" + parked).then().statusCode(200);
    }

    @Test
    void aFrozenRedisGets503sAndADownReadinessNotAHang() {
        StallableRedisResource.server().pause();
        try {
            everyCallAnswers503();
            readiness().statusCode(503);
        } finally {
            StallableRedisResource.server().resume();
        }
        awaitRecovery();
    }

    long connectedClients() {
        String info = redis.execute("INFO", "clients").toString();
        return info.lines().filter(l -> l.startsWith("connected_clients:"))
                .mapToLong(l -> Long.parseLong(l.substring("connected_clients:".length()).trim())).findFirst().orElseThrow();
    }

    @Test
    void afterAFreezeThePoolGivesBackTheConnectionsItGrewTo() throws Exception {
        // What the service holds when it has settled: the pool and its one blocked read, which it
        // opens a moment after start-up (a count taken before it would leave no room for it).
        Await.until("the queue's blocked read", Duration.ofSeconds(30),
                () -> redis.execute("CLIENT", "LIST").toString().contains("flags=b"));
        long before = connectedClients();
        StallableRedisResource.server().pause();
        ExecutorService callers = Executors.newFixedThreadPool(30);
        try {
            List<Future<Integer>> answers = new ArrayList<>();
            for (int i = 0; i < 30; i++) {
                answers.add(callers.submit(() -> bounded(as("viewer"), CEILING_MS).get(D + "/entries/" + parked)
                        .then().extract().statusCode()));
            }
            for (Future<Integer> answer : answers) {
                assertEquals(503, answer.get());
            }
        } finally {
            callers.shutdownNow();
            StallableRedisResource.server().resume();
        }
        long grown = connectedClients();
        assertTrue(grown >= before + 10, "the pool grew during the freeze: " + before + " -> " + grown);
        // Within the recycle timeout (30s) and a cleaner round, not the client's default 3 minutes.
        try {
            Await.until("the pool to shrink back from " + grown + " connections", Duration.ofSeconds(100),
                    () -> connectedClients() <= before + 2);
        } catch (AssertionError e) {
            // Which connections stayed, and what each last did, is what a failure needs to be read.
            throw new AssertionError(e.getMessage() + " (" + before + " before the freeze); now connected:\n"
                    + redis.execute("CLIENT", "LIST"), e);
        }
    }

    @Test
    void aFullRedisGets503sAndKeepsTheEntry() {
        redis.execute("CONFIG", "SET", "maxmemory-policy", "noeviction");
        redis.execute("CONFIG", "SET", "maxmemory", "1");
        try {
            unavailable(as("operator").post(D + "/entries/" + parked + "/replay").then());
            unavailable(as("operator").delete(D + "/entries/" + parked + "?reason=full").then());
            unavailable(as("operator").contentType("application/json").body("{\"dryRun\": true}")
                    .post(D + "/redrives").then());
        } finally {
            redis.execute("CONFIG", "SET", "maxmemory", "0");
        }
        as("viewer").get(D + "/entries/" + parked).then().statusCode(200);
        assertEquals(0, redis.stream(String.class).xlen("{jobs}back"), "nothing was replayed");
    }

    @Test
    void aStoppedRedisGets503s() {
        StallableRedisResource.server().kill();
        try {
            everyCallAnswers503();
            readiness().statusCode(503);
        } finally {
            StallableRedisResource.restart();
        }
        Await.until("readiness to be UP again", Duration.ofSeconds(30), () -> {
            try {
                return readiness().extract().statusCode() == 200;
            } catch (RuntimeException stillDown) {
                return false;
            }
        });
        // The Redis that came back has no data: the queue's group is gone with the stream. A job
        // added now is read all the same (the worker creates its group again), not left unread.
        String job = redis.execute("XADD", "jobs", "*", "payload", "after the restart").toString();
        Await.until("the job added after the restart to be read and settled", Duration.ofSeconds(30), () -> {
            for (var group : redis.execute("XINFO", "GROUPS", "jobs")) {
                Map<String, String> fields = new java.util.HashMap<>();
                for (int i = 0; i + 1 < group.size(); i += 2) {
                    fields.put(group.get(i).toString(), String.valueOf(group.get(i + 1)));
                }
                if (job.equals(fields.get("last-delivered-id")) && "0".equals(fields.get("pending"))) {
                    return true;
                }
            }
            return false;
        });
    }
}
