package dev.redrive.bench;

import java.util.Arrays;

/**
 * Issue 12's measurements (scale), run by bench/run.sh through {@link Bench} with the same
 * conventions: the packaged service on the private redis-server, one "RESULT {json}" line each.
 * <ul>
 * <li>{@code manyqueues} ({@link ManyQueues}): 1, 100 and 1,000 queues (handler noop) in one
 * process; bursts of 200 jobs to one quiet queue at a time, sampled across the queues: drain time
 * from the XADD to the last ack, the connections the service holds, its RSS;</li>
 * <li>{@code idle} ({@link Idle}): 1,000 queues that never see a job, for 60 s after start-up
 * settles: Redis commands and CPU per second (INFO commandstats and cpu, reset at the window's start);</li>
 * <li>{@code punctuality} ({@link Punctuality}): 10,000 jobs whose first attempt fails with a
 * Retry-After of 0.2-5 s (handler {@code retry-once}), which records second attempt start minus
 * (first attempt + wait);</li>
 * <li>{@code httpceiling} ({@link Ceiling}): a JVM of its own calling the same no-op server with the
 * Vert.x HTTP client configured as the HTTP handler's (keep-alive, 64 calls in flight, the same
 * headers), and the HTTP handler's ratio to it when {@code http} ran in the same session.</li>
 * </ul>
 */
final class Scale {

    static final String ALL = "manyqueues,idle,punctuality,httpceiling";

    private Scale() {
    }

    static void run(Harness h) throws Exception {
        int[] counts = Arrays.stream(h.args.getOrDefault("queues", "1,100,1000").split(",")).mapToInt(Integer::parseInt)
                .toArray();
        int idleQueues = h.intArg("idle-queues", 1000);
        int idleSeconds = h.intArg("idle-seconds", 60);
        if (h.only.contains("manyqueues")) {
            ManyQueues many = new ManyQueues(h, h.intArg("bursts", 20));
            for (int n : counts) {
                many.run(n, h.only.contains("idle") && n == idleQueues ? idleSeconds : 0);
            }
        }
        if (h.only.contains("idle") && !(h.only.contains("manyqueues") && Arrays.stream(counts).anyMatch(n -> n == idleQueues))) {
            new ManyQueues(h, 0).run(idleQueues, idleSeconds);
        }
        if (h.only.contains("punctuality")) {
            int retryJobs = h.intArg("retry-jobs", 10_000);
            new Punctuality(h).run(retryJobs, h.intArg("retry-enqueue-ms", 1000), h.intArg("retry-warm-up", retryJobs));
        }
        if (h.only.contains("httpceiling") && !h.only.contains("http")) {
            Ceiling.alone(h);
        }
    }
}
