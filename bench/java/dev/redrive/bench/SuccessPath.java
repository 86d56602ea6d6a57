package dev.redrive.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.vertx.redis.client.Response;

/**
 * 1. The success path, 5. the cost growth (the same drain behind a million old entries and 10,000
 * retries waiting in the PEL), interleaved per rep, and then 3. the bulk replay: one service,
 * handler noop.
 */
final class SuccessPath {

    private final Harness h;
    private final Gate gate;

    SuccessPath(Harness h) {
        this.h = h;
        this.gate = new Gate(h);
    }

    void run(int old, int waitingRetry) throws Exception {
        h.fresh();
        // A long backoff keeps the PEL's waiting retries of measurement 5 waiting all through it.
        try (Service s = Service.start(h, "success", "noop", Map.of("backoff", "10m", "attempts", "3"))) {
            gate.warmUp(s, h.jobs);
            gate.warmUp(s, h.jobs);
            List<Map<String, Object>> success = new ArrayList<>();
            List<Map<String, Object>> growth = new ArrayList<>();
            if (h.only.contains("growth")) {
                buildPrefix(old, waitingRetry);
            }
            // Alternate the order, so a JIT or a neighbour's build that warms up or calms down over
            // the run does not favour one side of the comparison.
            for (int rep = 1; rep <= h.reps; rep++) {
                for (String which : rep % 2 == 1 ? List.of("success", "growth") : List.of("growth", "success")) {
                    if (which.equals("success") && h.only.contains("success")) {
                        gate.stage(h.jobs);
                        success.add(gate.drain(s, "success path (no-op handler)", h.jobs, 0, 0, rep));
                        new RawBeside(h).after(success.get(success.size() - 1), rep);
                    }
                    if (which.equals("growth") && h.only.contains("growth")) {
                        h.call("DEL", Harness.STAGE);
                        h.call("COPY", Harness.BASE, Harness.STAGE);
                        h.gen(Harness.STAGE, h.jobs - 1, old + waitingRetry);
                        growth.add(gate.drain(s, "cost growth (" + old / 1000 + "k old entries, " + waitingRetry / 1000
                                + "k waiting retries)", h.jobs, old + waitingRetry, waitingRetry, rep));
                    }
                }
            }
            if (!success.isEmpty() && !growth.isEmpty()) {
                double base = Figures.median(success, "jobs_per_s"), grown = Figures.median(growth, "jobs_per_s");
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("name", "cost growth: median throughput change vs success path");
                m.put("jobs", h.jobs);
                m.put("success_median_jobs_per_s", Math.round(base));
                m.put("growth_median_jobs_per_s", Math.round(grown));
                m.put("change_pct", Figures.round1((grown - base) / base * 100));
                h.emit(m);
            }
            if (h.only.contains("replay")) {
                new BulkReplay(h).run(s);
            }
        }
    }

    /** The cost growth's prefix: {@code old} entries read and acked, {@code waitingRetry} pending for a retry. */
    private void buildPrefix(int old, int waitingRetry) throws Exception {
        Figures.log("building the cost-growth prefix: %,d old entries, %,d waiting for retry", old, waitingRetry);
        h.call("DEL", Harness.BASE);
        h.gen(Harness.BASE, old, 0);
        h.call("XGROUP", "CREATE", Harness.BASE, Harness.GROUP, "$", "ENTRIESREAD", String.valueOf(old));
        h.gen(Harness.BASE, waitingRetry, old);
        Response r = h.call("XREADGROUP", "GROUP", Harness.GROUP, Harness.RETRY_CONSUMER, "COUNT",
                String.valueOf(waitingRetry), "STREAMS", Harness.BASE, ">");
        Figures.check(r.get(0).get(1).size() == waitingRetry, "expected %d entries for the retry consumer", waitingRetry);
    }
}
