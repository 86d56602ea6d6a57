package dev.redrive.demo;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.redrive.job.Job;
import dev.redrive.job.JobFailedException;
import dev.redrive.job.JobHandler;
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
     * {@value #SENT_AT}. Jobs without the field (warm-up) are not recorded.
     */
    @ApplicationScoped
    @Identifier("latency")
    public static class StartDelay implements JobHandler {

        public static final String SENT_AT = "sent-at-us";
        private static final Uni<Void> DONE = Uni.createFrom().voidItem();

        @Inject
        MeterRegistry registry;

        private volatile Timer delay;

        @Override
        public Uni<Void> handle(Job job) {
            Instant now = Instant.now();
            byte[] sent = job.fields().get(SENT_AT);
            if (sent != null) {
                long micros = now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000
                        - Long.parseLong(new String(sent, StandardCharsets.US_ASCII));
                timer().record(Math.max(0, micros), TimeUnit.MICROSECONDS);
            }
            return DONE;
        }

        private Timer timer() {
            Timer t = delay;
            if (t == null) {
                t = Timer.builder("redrive.bench.start.delay")
                        .description("Bench only: producer's XADD to handler start")
                        .publishPercentiles(0.5, 0.99, 0.999)
                        .percentilePrecision(3)
                        .distributionStatisticExpiry(Duration.ofMinutes(10))
                        .distributionStatisticBufferLength(1)
                        .register(registry);
                delay = t;
            }
            return t;
        }
    }
}
