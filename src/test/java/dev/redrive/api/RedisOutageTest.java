package dev.redrive.api;

import static dev.redrive.testing.Api.as;
import static dev.redrive.testing.Api.problem;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import dev.redrive.testing.OutageProfile;
import dev.redrive.testing.Own;
import dev.redrive.testing.RedisResource;
import dev.redrive.testing.TestQueue;
import io.quarkus.test.junit.QuarkusTest;
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
@TestProfile(OutageProfile.class)
class RedisOutageTest {

    /** Far above the 2s Redis limit of the profile: a request that gets here hung. */
    static final int CEILING_MS = 15_000;
    /** Kubernetes' readiness probe gives up after 3s (deploy/); readiness must answer well before. */
    static final int PROBE_CEILING_MS = 3_000;

    @Inject
    @Own("jobs")
    TestQueue jobs;

    String parked;

    @BeforeEach
    void park() {
        parked = DeadLetterSeed.from(OutageProfile.TARGET, "1-0").with(RecordField.JOB, "outage")
                .with(RecordField.FINGERPRINT, "ffffffffffff").with(RecordField.DEAD_AT, "2026-01-01T00:00:00Z")
                .snapshot("payload", "x").park(jobs.redis(), jobs.dlq());
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
                "listing", r -> r.get(jobs.dlqPath() + "/entries").then(),
                "entry", r -> r.get(jobs.dlqPath() + "/entries/" + parked).then(),
                "value", r -> r.get(jobs.dlqPath() + "/entries/" + parked + "/fields/payload").then(),
                "audit", r -> r.get(jobs.dlqPath() + "/audit").then(),
                "replay", r -> r.post(jobs.dlqPath() + "/entries/1-1/replay").then(),
                "discard", r -> r.delete(jobs.dlqPath() + "/entries/1-1?reason=outage").then(),
                "redrive", r -> r.contentType("application/json").body("{\"dryRun\": true}").post(jobs.dlqPath() + "/redrives").then(),
                "redrive status", r -> r.get(jobs.dlqPath() + "/redrives/0c1d6b0e-6c57-4a3c-9b43-0d6f5c2a0f11").then());
        calls.forEach((name, call) -> unavailable(call.apply(bounded(as("operator"), CEILING_MS))));
    }

    static ValidatableResponse readiness() {
        int port = ConfigProvider.getConfig().getValue("quarkus.management.test-port", Integer.class);
        return bounded(given().port(port), PROBE_CEILING_MS).get("/q/health/ready").then();
    }

    void awaitRecovery() {
        Await.until("readiness to be UP again", () -> {
            try {
                return readiness().extract().statusCode() == 200;
            } catch (RuntimeException stillDown) {
                return false;
            }
        });
        as("viewer").get(jobs.dlqPath() + "/entries/" + parked).then().statusCode(200);
    }

    @Test
    void aFrozenRedisGets503sAndADownReadinessNotAHang() {
        RedisResource.server().pause();
        try {
            everyCallAnswers503();
            readiness().statusCode(503);
        } finally {
            RedisResource.server().resume();
        }
        awaitRecovery();
    }

    long connectedClients() {
        String info = jobs.redis().execute("INFO", "clients").toString();
        return info.lines().filter(l -> l.startsWith("connected_clients:"))
                .mapToLong(l -> Long.parseLong(l.substring("connected_clients:".length()).trim())).findFirst().orElseThrow();
    }

    @Test
    void afterAFreezeThePoolGivesBackTheConnectionsItGrewTo() throws Exception {
        // What the service holds when it has settled: the pool and its one blocked read, which it
        // opens a moment after start-up (a count taken before it would leave no room for it).
        Await.until("the queue's blocked read",
                () -> jobs.redis().execute("CLIENT", "LIST").toString().contains("flags=b"));
        long before = connectedClients();
        RedisResource.server().pause();
        ExecutorService callers = Executors.newFixedThreadPool(30);
        try {
            List<Future<Integer>> answers = new ArrayList<>();
            for (int i = 0; i < 30; i++) {
                answers.add(callers.submit(() -> bounded(as("viewer"), CEILING_MS).get(jobs.dlqPath() + "/entries/" + parked)
                        .then().extract().statusCode()));
            }
            for (Future<Integer> answer : answers) {
                assertEquals(503, answer.get());
            }
        } finally {
            callers.shutdownNow();
            RedisResource.server().resume();
        }
        long grown = connectedClients();
        assertTrue(grown >= before + 10, "the pool grew during the freeze: " + before + " -> " + grown);
        // Within the recycle timeout and a cleaner round (OutageProfile shortens both), not the client's default 3 minutes.
        try {
            Await.until("the pool to shrink back from " + grown + " connections",
                    () -> connectedClients() <= before + 2);
        } catch (AssertionError e) {
            // Which connections stayed, and what each last did, is what a failure needs to be read.
            throw new AssertionError(e.getMessage() + " (" + before + " before the freeze); now connected:\n"
                    + jobs.redis().execute("CLIENT", "LIST"), e);
        }
    }

    @Test
    void aFullRedisGets503sAndKeepsTheEntry() {
        jobs.redis().execute("CONFIG", "SET", "maxmemory-policy", "noeviction");
        jobs.redis().execute("CONFIG", "SET", "maxmemory", "1");
        try {
            unavailable(as("operator").post(jobs.dlqPath() + "/entries/" + parked + "/replay").then());
            unavailable(as("operator").delete(jobs.dlqPath() + "/entries/" + parked + "?reason=full").then());
            unavailable(as("operator").contentType("application/json").body("{\"dryRun\": true}")
                    .post(jobs.dlqPath() + "/redrives").then());
        } finally {
            jobs.redis().execute("CONFIG", "SET", "maxmemory", "0");
        }
        as("viewer").get(jobs.dlqPath() + "/entries/" + parked).then().statusCode(200);
        assertEquals(0, jobs.redis().stream(String.class).xlen(OutageProfile.TARGET), "nothing was replayed");
    }

    @Test
    void aStoppedRedisGets503s() {
        RedisResource.server().kill();
        try {
            everyCallAnswers503();
            readiness().statusCode(503);
        } finally {
            RedisResource.restart();
        }
        Await.until("readiness to be UP again", () -> {
            try {
                return readiness().extract().statusCode() == 200;
            } catch (RuntimeException stillDown) {
                return false;
            }
        });
        // The Redis that came back has no data: the queue's group is gone with the stream. A job
        // added now is read all the same (the worker creates its group again), not left unread.
        String job = jobs.redis().execute("XADD", "jobs", "*", "payload", "after the restart").toString();
        Await.until("the job added after the restart to be read and settled", () -> {
            for (var group : jobs.redis().execute("XINFO", "GROUPS", "jobs")) {
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
