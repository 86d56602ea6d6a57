package dev.redrive.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.junit.jupiter.api.Test;

import dev.redrive.testing.Await;
import dev.redrive.testing.Downstream;
import dev.redrive.testing.Downstream.Answer;
import dev.redrive.testing.RedisServer;
import dev.redrive.testing.RedriveProcess;

/**
 * 5,000 jobs (ok, flaky, poison, slow) through two service processes that are killed with
 * SIGKILL several times and restarted, while redis-server (AOF, appendfsync always) is killed and
 * restarted once. At the end, by job id: every job completed at least once or sits in the
 * dead-letter stream exactly once, never both, none missing, and the PEL is empty.
 */
class CrashRestartIT {

    static final int JOBS = 5000;
    static final String[] KINDS = {"ok", "ok", "ok", "ok", "ok", "ok", "ok", "flaky", "flaky", "flaky", "slow", "slow", "poison"};

    @Test
    void everyJobEndsDoneOrParkedOnceThroughCrashesAndARedisRestart() throws Exception {
        Map<String, Integer> completions = new ConcurrentHashMap<>();
        try (RedisServer redis = new RedisServer("--appendonly", "yes", "--appendfsync", "always").start();
                Downstream downstream = new Downstream(RedisServer.freePort())) {
            downstream.respond(r -> {
                String body = new String(r.body());
                if (body.contains("poison") || body.contains("flaky") && "1".equals(r.header("Redrive-Attempt"))) {
                    return Answer.status(503, "failing on purpose");
                }
                completions.merge(r.jobId(), 1, Integer::sum);
                return body.contains("slow") ? new Answer(200, "", Map.of(), 300) : Answer.ok();
            });
            Map<String, String> config = new HashMap<>(Map.of(
                    "quarkus.redis.hosts", redis.url(),
                    "redrive.queues.work.handler", "http",
                    "redrive.queues.work.http.url", downstream.url("/work"),
                    "redrive.queues.work.http.circuit-breaker.window", "100000",
                    "redrive.queues.work.attempts", "5",
                    "redrive.queues.work.backoff", "50ms",
                    "redrive.queues.work.concurrency", "16",
                    "redrive.queues.work.visibility-timeout", "2s"));
            Map<String, String> kindOf = new HashMap<>();
            try (RedisCli cli = new RedisCli(redis.port())) {
                cli.call("XGROUP", "CREATE", "work", "redrive", "0", "MKSTREAM");
                for (int i = 0; i < JOBS; i++) {
                    String kind = KINDS[i % KINDS.length];
                    kindOf.put("work/" + cli.xadd("work", "payload", "{\"kind\":\"" + kind + "\",\"n\":" + i + "}"), kind);
                }
            }
            List<RedriveProcess> processes = new ArrayList<>();
            RedriveProcess a = start("a", config, processes);
            RedriveProcess b = start("b", config, processes);
            a.awaitReady(Duration.ofSeconds(60));
            b.awaitReady(Duration.ofSeconds(60));
            try {
                pause(Duration.ofSeconds(2));
                a.kill();
                a = start("a2", config, processes);
                pause(Duration.ofSeconds(2));
                b.kill();
                b = start("b2", config, processes);
                pause(Duration.ofSeconds(2));
                redis.kill();
                pause(Duration.ofMillis(500));
                redis.start();
                pause(Duration.ofSeconds(2));
                a.kill();
                a = start("a3", config, processes);
                try (RedisCli cli = new RedisCli(redis.port())) {
                    Await.until("every job to be done or parked", Duration.ofSeconds(180), () -> {
                        long parked = cli.xlen("{work}:dlq");
                        return completions.size() + parked >= JOBS && cli.pending("work", "redrive") == 0;
                    });
                    Map<String, Integer> parkedTimes = parkedTimes(cli);
                    int missing = 0;
                    int both = 0;
                    for (var job : kindOf.entrySet()) {
                        boolean done = completions.containsKey(job.getKey());
                        int parked = parkedTimes.getOrDefault(job.getKey(), 0);
                        if (done && parked > 0) {
                            both++;
                        }
                        if (!done && parked == 0) {
                            missing++;
                        }
                        if (job.getValue().equals("poison")) {
                            assertEquals(1, parked, job.getKey() + " (poison) parked exactly once");
                        } else {
                            assertTrue(done, job.getKey() + " (" + job.getValue() + ") completed");
                            assertEquals(0, parked, job.getKey() + " (" + job.getValue() + ") not parked");
                        }
                    }
                    assertEquals(0, missing);
                    assertEquals(0, both);
                    assertEquals(0, cli.pending("work", "redrive"));
                    long runTwice = completions.values().stream().filter(n -> n > 1).count();
                    System.out.printf("CrashRestartIT: %d jobs, %d completed, %d parked, %d completed more than once "
                            + "(at-least-once across 3 SIGKILLs and a Redis restart)%n", JOBS, completions.size(),
                            parkedTimes.size(), runTwice);
                }
            } finally {
                processes.forEach(RedriveProcess::close);
            }
        }
    }

    private static RedriveProcess start(String name, Map<String, String> config, List<RedriveProcess> all) {
        RedriveProcess p = new RedriveProcess(name, config).start();
        all.add(p);
        return p;
    }

    /** The chaos schedule is a scenario, not a wait for an outcome: the service keeps working meanwhile. */
    private static void pause(Duration d) {
        Instant until = Instant.now().plus(d);
        Await.until("the scenario's next step", d.plusSeconds(5), () -> Instant.now().isAfter(until));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Integer> parkedTimes(RedisCli cli) {
        Map<String, Integer> times = new HashMap<>();
        List<Object> entries = (List<Object>) cli.call("XRANGE", "{work}:dlq", "-", "+");
        for (Object e : entries) {
            List<Object> fields = (List<Object>) ((List<Object>) e).get(1);
            String stream = null;
            String id = null;
            for (int i = 0; i < fields.size(); i += 2) {
                String name = RedisCli.text(fields.get(i));
                if (name.equals("origin-stream")) {
                    stream = RedisCli.text(fields.get(i + 1));
                } else if (name.equals("origin-id")) {
                    id = RedisCli.text(fields.get(i + 1));
                }
            }
            times.merge(stream + "/" + id, 1, Integer::sum);
        }
        return times;
    }
}
