package dev.redrive.worker;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import org.jboss.logging.Logger;

import dev.redrive.config.QueueSpec;
import dev.redrive.job.Job;
import dev.redrive.redis.StreamAccess;
import dev.redrive.retry.Failure;
import io.smallrye.mutiny.Uni;

/**
 * A retry that is due at once (no backoff and no Retry-After) needs no hand-over: handing it to
 * the retry consumer only for a timer to claim it back would cost two claims and a script. The
 * job stays pending under this process, its delivery count goes up by one (XCLAIM to itself with
 * RETRYCOUNT, batched per event-loop turn), so the attempt is counted in Redis before it runs,
 * and it runs again with the fields already read. Should this process die first, stall recovery
 * takes it over like any of its running jobs. A job whose entry was trimmed meanwhile is not run
 * again but parked as missing, with the failure of the attempt that just ended.
 */
final class ImmediateRetries {

    private static final Logger LOG = Logger.getLogger(ImmediateRetries.class);

    /** A job to run again at once, and the failure and start of the attempt that just ended. */
    private record Again(Job job, Failure failure, Instant attemptedAt) {
    }

    private final Batcher<Again> again;
    /** {@code worker::slotFreed}, built once: a bound method reference is a new object each time it is evaluated. */
    private final Runnable slotFreed;

    ImmediateRetries(QueueSpec spec, String consumer, StreamAccess redis, OutcomeListener worker) {
        this.slotFreed = worker::slotFreed;
        this.again = new Batcher<>(jobs -> {
            Map<Integer, List<String>> byAttempt = new TreeMap<>();
            jobs.forEach(j -> byAttempt.computeIfAbsent(j.job().attempt(), a -> new ArrayList<>()).add(j.job().id()));
            List<Uni<List<StreamAccess.Seen>>> counted = new ArrayList<>();
            byAttempt.forEach((attempt, ids) -> counted.add(
                    redis.transfer(spec.stream(), spec.group(), consumer, ids, attempt + 1)));
            return Uni.join().all(counted).andFailFast().invoke(gone -> {
                Set<String> trimmedIds = new HashSet<>();
                gone.forEach(seen -> seen.forEach(s -> trimmedIds.add(s.id())));
                List<StreamAccess.Entry> runAgain = new ArrayList<>(jobs.size());
                for (Again a : jobs) {
                    if (trimmedIds.contains(a.job().id())) {
                        worker.trimmed(a.job(), a.failure(), a.attemptedAt());
                    } else {
                        runAgain.add(new StreamAccess.Entry(a.job().id(), a.job().attempt() + 1, a.job().fields()));
                    }
                }
                worker.runAgain(runAgain);
            });
        }, (jobs, e) -> LOG.errorf(e, "could not count the next attempt of %d failed jobs of %s; they stay pending "
                + "under %s until stall recovery", jobs.size(), spec.stream(), consumer), worker::later);
    }

    /** Whether a job that failed this attempt is due again at once. */
    static boolean atOnce(long waitMillis, boolean hinted) {
        return waitMillis == 0 && !hinted;
    }

    void add(Job job, Failure failure, Instant attemptedAt) {
        again.add(new Again(job, failure, attemptedAt), slotFreed);
    }
}
