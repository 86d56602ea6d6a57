package dev.redrive.worker;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Function;

import dev.redrive.job.Job;
import dev.redrive.observe.QueueMetrics;
import dev.redrive.retry.Failure;
import io.smallrye.mutiny.Uni;

/**
 * Runs a queue's handler, one attempt of a job at a time, timed for the metrics; knows which jobs
 * are running, so the heartbeat renews exactly those. A handler that throws instead of failing
 * its Uni counts as a failed attempt all the same.
 */
final class Attempts {

    private final Function<Job, Uni<Void>> handler;
    private final QueueMetrics metrics;
    private final Set<String> running = ConcurrentHashMap.newKeySet();

    Attempts(Function<Job, Uni<Void>> handler, QueueMetrics metrics) {
        this.handler = handler;
        this.metrics = metrics;
    }

    /**
     * Runs the handler once; {@code done} gets the failure, or null when the job is done. With
     * tracing on, the handler runs and its time is recorded with the attempt's span current, so the
     * handler's spans nest in it and the duration histogram carries its trace as an exemplar.
     */
    void run(Job job, AttemptTrace trace, Consumer<Failure> done) {
        trace.runHandler(() -> attempt(job, trace, done));
    }

    private void attempt(Job job, AttemptTrace trace, Consumer<Failure> done) {
        running.add(job.id());
        long start = System.nanoTime();
        Uni<Void> attempt;
        try {
            attempt = handler.apply(job);
        } catch (RuntimeException e) {
            attempt = Uni.createFrom().failure(e);
        }
        attempt.subscribe().with(
                ok -> finished(job, System.nanoTime() - start, null, done, trace),
                error -> finished(job, System.nanoTime() - start, Failure.of(error), done, trace));
    }

    private void finished(Job job, long nanos, Failure failure, Consumer<Failure> done, AttemptTrace trace) {
        running.remove(job.id());
        trace.run(() -> count(nanos, failure));
        trace.release(() -> done.accept(failure));
    }

    private void count(long nanos, Failure failure) {
        if (failure == null) {
            metrics.completed(nanos);
        } else if (failure.attempted()) {
            metrics.failed(failure.terminal(), nanos);
        }
    }

    /** Ids of the jobs whose handler is running now. */
    List<String> ids() {
        return new ArrayList<>(running);
    }

    boolean isRunning(String id) {
        return running.contains(id);
    }
}
