package dev.redrive.bench;

import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;

import io.vertx.redis.client.Response;

/** 2. The failure path: every job fails transiently, 3 attempts, no backoff, parked as exhausted. */
final class FailurePath {

    /**
     * Failing jobs parked before the timed runs (see {@link #run}), at least: a failing job runs four
     * scripts' worth of the service's code where a succeeding one runs one, so it needs more to compile.
     */
    static final int WARM_UP_FAILURES = 100_000;

    private final Harness h;
    private final Gate gate;

    FailurePath(Harness h) {
        this.h = h;
        this.gate = new Gate(h);
    }

    void run() throws Exception {
        // Half the success path's jobs: at 30,000-40,000 a second a run of a tenth (10,000 jobs,
        // 0.3 s) measured the service's JIT more than the path (bench/README.md, issue 37).
        int n = Math.max(10, h.jobs / 2);
        h.fresh();
        try (Service s = Service.start(h, "failure", "fail", Map.of("backoff", "0ms", "attempts", "3"))) {
            for (int rep = 0; rep <= Math.min(h.reps, 2); rep++) {
                // The warm-up (rep 0) is at least as large as a measured run, and large enough that
                // the measured runs find the JIT done: after 30,000 the first measured run still
                // took about twice the service CPU per job of a later one.
                int batchJobs = rep == 0 ? Math.max(n, WARM_UP_FAILURES) : n;
                long dlqBefore = h.call("XLEN", Harness.DLQ).toLong();
                String lastDlqId = h.lastId(Harness.DLQ);
                gate.stage(batchJobs);
                s.mark();
                double cpu0 = h.redisCpu();
                gate.open();
                long[] window = gate.watch(0, batchJobs, 0, Duration.ofSeconds(300),
                        () -> h.call("XLEN", Harness.DLQ).toLong(), dlqBefore + batchJobs);
                double cpu1 = h.redisCpu();
                if (rep == 0) {
                    Figures.log("warm-up: %,d failing jobs parked", batchJobs);
                    continue;
                }
                // Every measured job must be parked once, after exactly 3 attempts.
                Map<String, Long> attempts = attemptsSince(lastDlqId);
                long parked = attempts.values().stream().mapToLong(Long::longValue).sum();
                Figures.check(parked == batchJobs && attempts.getOrDefault("3", 0L) == batchJobs,
                        "failure path: %d parked, attempts %s (expected %d, all 3)", parked, attempts, batchJobs);
                gate.report(s, "failure path (always transient, 3 attempts, 0 backoff) into the DLQ", batchJobs, window,
                        cpu1 - cpu0, Map.of("rep", rep, "attempts_per_job", attempts.toString(),
                                "attempts_total", 3L * batchJobs));
            }
        }
    }

    /** The dead letters after {@code lastDlqId}, counted by their attempts field. */
    private Map<String, Long> attemptsSince(String lastDlqId) throws Exception {
        Map<String, Long> attempts = new TreeMap<>();
        String from = "(" + lastDlqId;
        while (true) {
            Response page = h.call("XRANGE", Harness.DLQ, from, "+", "COUNT", "1000");
            if (page.size() == 0) {
                return attempts;
            }
            for (Response e : page) {
                Response f = e.get(1);
                boolean counted = false;
                for (int i = 0; i + 1 < f.size(); i += 2) {
                    if (f.get(i).toString().equals("attempts")) {
                        attempts.merge(f.get(i + 1).toString(), 1L, Long::sum);
                        counted = true;
                    }
                }
                if (!counted) {
                    attempts.merge("none", 1L, Long::sum);
                }
                from = "(" + e.get(0).toString();
            }
        }
    }
}
