package dev.redrive.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.redrive.job.Job;
import dev.redrive.job.JobHandler;
import dev.redrive.job.TerminalJobException;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.smallrye.common.annotation.Identifier;
import io.smallrye.mutiny.Uni;

/**
 * A Java handler whose behaviour each job picks with its {@code kind} field: {@code ok},
 * {@code flaky:N} (fails its first N attempts), {@code poison} (always transient),
 * {@code terminal}, {@code slow:MS} (succeeds after MS milliseconds), {@code slow-fail:MS} (fails,
 * transiently, after MS milliseconds), {@code busy:S} (fails its
 * first attempt as a busy provider does, asking to wait S seconds, then succeeds), {@code hog:MS}
 * (holds the thread it is called on, the event loop, MS milliseconds, as a cold or starved process
 * does in smaller pieces, then succeeds). It records every attempt
 * and the most attempts of one job that ever ran at once.
 */
@ApplicationScoped
@Identifier("scripted")
public class ScriptedHandler implements JobHandler {

    /** What attempts are stamped with: the boot's clock, which a test may step (SteppableTimers). */
    @Inject
    Clock clock;

    /**
     * @param startedAt   on the boot's clock
     * @param currentSpan the span current when the handler was called (invalid with tracing off)
     */
    public record Attempt(String jobId, int attempt, Instant startedAt, Map<String, byte[]> fields, String idempotencyKey,
            SpanContext currentSpan) {
    }

    private final List<Attempt> attempts = new CopyOnWriteArrayList<>();
    private final Map<String, AtomicInteger> runningNow = new ConcurrentHashMap<>();
    private final Map<String, Integer> mostAtOnce = new ConcurrentHashMap<>();
    private final Map<String, Integer> completed = new ConcurrentHashMap<>();
    private final Map<String, Integer> attemptCounts = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> runningInStream = new ConcurrentHashMap<>();
    private final Map<String, Integer> mostInStreamAtOnce = new ConcurrentHashMap<>();

    @Override
    public Uni<Void> handle(Job job) {
        attempts.add(new Attempt(job.jobId(), job.attempt(), clock.instant(), job.fields(), job.idempotencyKey(),
                Span.current().getSpanContext()));
        attemptCounts.merge(job.jobId(), 1, Integer::sum);
        int now = runningNow.computeIfAbsent(job.jobId(), k -> new AtomicInteger()).incrementAndGet();
        mostAtOnce.merge(job.jobId(), now, Math::max);
        AtomicInteger inStream = runningInStream.computeIfAbsent(job.stream(), k -> new AtomicInteger());
        mostInStreamAtOnce.merge(job.stream(), inStream.incrementAndGet(), Math::max);
        String kind = job.text("kind").orElse("ok");
        Uni<Void> outcome;
        if (kind.startsWith("flaky:")) {
            int failures = Integer.parseInt(kind.substring(6));
            outcome = job.attempt() <= failures
                    ? Uni.createFrom().failure(new IllegalStateException("flaky failure " + job.attempt()))
                    : Uni.createFrom().voidItem();
        } else if (kind.startsWith("busy:")) {
            outcome = job.attempt() == 1
                    ? Uni.createFrom().failure(new dev.redrive.job.JobFailedException("busy", "provider busy",
                            Duration.ofSeconds(Long.parseLong(kind.substring(5)))))
                    : Uni.createFrom().voidItem();
        } else if (kind.equals("poison")) {
            outcome = Uni.createFrom().failure(new IllegalStateException("provider answered 503 for doc 42"));
        } else if (kind.equals("terminal")) {
            outcome = Uni.createFrom().failure(new TerminalJobException("input rejected: field 'x' missing"));
        } else if (kind.startsWith("slow-fail:")) {
            outcome = Uni.createFrom().voidItem().onItem().delayIt().by(Duration.ofMillis(Long.parseLong(kind.substring(10))))
                    .onItem().failWith(() -> new IllegalStateException("provider answered 503 after a long wait"));
        } else if (kind.startsWith("hog:")) {
            long until = System.nanoTime() + Duration.ofMillis(Long.parseLong(kind.substring(4))).toNanos();
            while (System.nanoTime() < until) {
                Thread.onSpinWait();
            }
            outcome = Uni.createFrom().voidItem();
        } else if (kind.startsWith("slow:")) {
            outcome = Uni.createFrom().voidItem().onItem()
                    .delayIt().by(Duration.ofMillis(Long.parseLong(kind.substring(5))));
        } else {
            outcome = Uni.createFrom().voidItem();
        }
        return outcome.onItem().invoke(() -> completed.merge(job.jobId(), 1, Integer::sum))
                .onTermination().invoke(() -> {
                    runningNow.get(job.jobId()).decrementAndGet();
                    inStream.decrementAndGet();
                });
    }

    public List<Attempt> attemptsOf(String jobId) {
        return attempts.stream().filter(a -> a.jobId().equals(jobId)).toList();
    }

    /** How many attempts of the job ran (a count kept per job: load tests ask for every job). */
    public int attemptCount(String jobId) {
        return attemptCounts.getOrDefault(jobId, 0);
    }

    public int completions(String jobId) {
        return completed.getOrDefault(jobId, 0);
    }

    /** The most jobs of one stream whose handler ever ran at once. */
    public int mostInStreamAtOnce(String stream) {
        return mostInStreamAtOnce.getOrDefault(stream, 0);
    }

    public int mostAtOnce(String jobId) {
        return mostAtOnce.getOrDefault(jobId, 0);
    }
}
