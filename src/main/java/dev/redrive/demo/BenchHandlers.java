package dev.redrive.demo;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.redrive.job.Job;
import dev.redrive.job.JobFailedException;
import dev.redrive.job.JobHandler;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.smallrye.common.annotation.Identifier;
import io.smallrye.mutiny.Uni;

/**
 * Handlers the benchmark (bench/) runs redrive with. They do nothing per job beyond what their
 * name says, so what bench/ measures is redrive's own cost.
 */
public final class BenchHandlers {

    private BenchHandlers() {
    }

    /** Completes at once: the success path with no handler cost. */
    @ApplicationScoped
    @Identifier("noop")
    public static class Noop implements JobHandler {

        private static final Uni<Void> DONE = Uni.createFrom().voidItem();

        @Override
        public Uni<Void> handle(Job job) {
            return DONE;
        }
    }

    /** Always fails transiently: every job spends its whole budget and is parked as exhausted. */
    @ApplicationScoped
    @Identifier("fail")
    public static class AlwaysFails implements JobHandler {

        @Override
        public Uni<Void> handle(Job job) {
            return Uni.createFrom().failure(new JobFailedException("bench", "bench handler always fails", null));
        }
    }

    /**
     * Completes at once and records how long the job waited from the producer's XADD to this
     * handler's start: the producer writes its wall clock in epoch microseconds in field
     * {@value #SENT_AT}. Jobs that also carry field {@value #WARM_UP} are recorded apart, in
     * {@code redrive.bench.warm.up.start.delay}: the harness's warm-up runs the very code it then
     * measures (a warm-up that skipped the recording left the JIT compiling it in the measured
     * window). Jobs without {@value #SENT_AT} are not recorded.
     */
    @ApplicationScoped
    @Identifier("latency")
    public static class StartDelay implements JobHandler {

        public static final String SENT_AT = "sent-at-us";
        public static final String WARM_UP = "warm-up";
        private static final Uni<Void> DONE = Uni.createFrom().voidItem();

        @Inject
        MeterRegistry registry;

        private volatile Timer delay;
        private volatile Timer warmUpDelay;

        @Override
        public Uni<Void> handle(Job job) {
            Instant now = Instant.now();
            byte[] sent = job.fields().get(SENT_AT);
            if (sent != null) {
                long micros = now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000
                        - Long.parseLong(new String(sent, StandardCharsets.US_ASCII));
                (job.fields().containsKey(WARM_UP) ? warmUpTimer() : timer()).record(Math.max(0, micros),
                        TimeUnit.MICROSECONDS);
            }
            return DONE;
        }

        private Timer timer() {
            Timer t = delay;
            if (t == null) {
                t = delay = register("redrive.bench.start.delay", "producer's XADD to handler start");
            }
            return t;
        }

        private Timer warmUpTimer() {
            Timer t = warmUpDelay;
            if (t == null) {
                t = warmUpDelay = register("redrive.bench.warm.up.start.delay", "the same, the harness's warm-up");
            }
            return t;
        }

        private Timer register(String name, String what) {
            return Timer.builder(name)
                    .description("Bench only: " + what)
                    .publishPercentiles(0.5, 0.99, 0.999)
                    .percentilePrecision(3)
                    .distributionStatisticExpiry(Duration.ofMinutes(10))
                    .distributionStatisticBufferLength(1)
                    .register(registry);
        }
    }

    /**
     * Fails a job's first attempt with a Retry-After hint of {@value #RETRY_AFTER_MS} milliseconds
     * (a field of the job) and completes its second: the retry-punctuality measurement. On the
     * second attempt it records how late it started, start minus (first attempt + hint), apart for
     * each value of the job's {@value #RUN} field (so warm-up jobs are kept apart); a start before
     * that is counted as early. The first attempt's start is a little earlier than its failure, which
     * the service times the wait from, so the lateness recorded is an upper bound of start minus
     * due. Both attempts must run in this process to be recorded; a job without the field completes
     * at once.
     * <p>
     * A record is a store into an array ({@link Lateness}), its quantiles computed when scraped: a
     * Micrometer timer with percentiles ran a cold histogram and a meter look-up per job on the
     * event loop, in a fresh process's first second exactly when the measurement is taken.
     * Scraped as gauges: {@code redrive_bench_retry_lateness_seconds{quantile, run}} (quantile 1 is
     * the max), {@code redrive_bench_retry_lateness_recorded{run}}, {@code redrive_bench_retry_early{run}}.
     */
    @ApplicationScoped
    @Identifier("retry-once")
    public static class RetryOnce implements JobHandler {

        public static final String RETRY_AFTER_MS = "retry-after-ms";
        public static final String RUN = "run";
        /** Jobs waiting for their second attempt are remembered up to this many; the bench has 10,000. */
        private static final int REMEMBERED = 1_000_000;
        private static final Uni<Void> DONE = Uni.createFrom().voidItem();
        private static final List<String> QUANTILES = List.of("0.5", "0.99", "0.999", "1");
        /** Runs recorded apart, at most (each holds an array); later ones are recorded together as "other". */
        private static final int RUNS = 4;

        @Inject
        MeterRegistry registry;

        /** Job id to the nanoTime its second attempt is due, at the earliest. */
        private final Map<String, Long> due = new ConcurrentHashMap<>();
        private final Map<String, Lateness> runs = new ConcurrentHashMap<>();

        @Override
        public Uni<Void> handle(Job job) {
            long now = System.nanoTime();
            byte[] hint = job.fields().get(RETRY_AFTER_MS);
            if (hint == null) {
                return DONE;
            }
            if (job.attempt() == 1) {
                long wait = Long.parseLong(new String(hint, StandardCharsets.US_ASCII));
                if (due.size() < REMEMBERED) {
                    due.put(job.jobId(), now + TimeUnit.MILLISECONDS.toNanos(wait));
                }
                return Uni.createFrom().failure(new JobFailedException("bench-retry",
                        "bench handler fails the first attempt", Duration.ofMillis(wait)));
            }
            Long at = due.remove(job.jobId());
            if (at != null) {
                String run = job.text(RUN).orElse("none");
                runs.computeIfAbsent(runs.size() < RUNS || runs.containsKey(run) ? run : "other", this::lateness)
                        .record(now - at);
            }
            return DONE;
        }

        /** A run's record, its gauges registered once, when its first second attempt is recorded. */
        private Lateness lateness(String run) {
            Lateness lateness = new Lateness();
            for (String q : QUANTILES) {
                double quantile = Double.parseDouble(q);
                Gauge.builder("redrive.bench.retry.lateness.seconds", lateness, l -> l.quantileSeconds(quantile))
                        .description("Bench only: second attempt's start minus (first attempt's start + Retry-After)")
                        .tags(RUN, run, "quantile", q).register(registry);
            }
            Gauge.builder("redrive.bench.retry.lateness.recorded", lateness, l -> l.recorded())
                    .description("Bench only: second attempts recorded").tag(RUN, run).register(registry);
            Gauge.builder("redrive.bench.retry.early", lateness, l -> l.early.get())
                    .description("Bench only: second attempts that started before first attempt + Retry-After")
                    .tag(RUN, run).register(registry);
            return lateness;
        }
    }

    /** One run's lateness, every value kept (up to {@link #MAX}): exact quantiles, nothing to warm up. */
    static final class Lateness {

        static final int MAX = 100_000;
        private final AtomicLongArray nanos = new AtomicLongArray(MAX);
        private final AtomicInteger count = new AtomicInteger();
        final AtomicLong early = new AtomicLong();

        /** A start {@code late} ns after it was due; a negative one is early, and counted as such. */
        void record(long late) {
            if (late < 0) {
                early.incrementAndGet();
                return;
            }
            int i = count.getAndIncrement();
            if (i < MAX) {
                nanos.set(i, late);
            }
        }

        int recorded() {
            return Math.min(count.get(), MAX);
        }

        /** The {@code q} quantile (nearest rank), in seconds; NaN before any record. */
        double quantileSeconds(double q) {
            int n = recorded();
            if (n == 0) {
                return Double.NaN;
            }
            long[] sorted = new long[n];
            for (int i = 0; i < n; i++) {
                sorted[i] = nanos.get(i);
            }
            Arrays.sort(sorted);
            return sorted[Math.max(0, (int) Math.ceil(q * n) - 1)] / 1e9;
        }
    }
}
