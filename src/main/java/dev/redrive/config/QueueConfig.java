package dev.redrive.config;

import java.time.Duration;
import java.util.Optional;

import io.smallrye.config.WithDefault;

/** One queue of {@code redrive.queues.<name>}: its stream, handler, attempt budget and pacing. */
public interface QueueConfig {
    /** The stream the jobs are added to. Defaults to the queue's name. */
    Optional<String> stream();

    /** The consumer group redrive reads with. Defaults to {@code redrive}. */
    @WithDefault("redrive")
    String group();

    /**
     * {@code http}, or the {@code @Identifier} name of a {@code JobHandler} bean.
     * Defaults to {@code http}.
     */
    @WithDefault("http")
    String handler();

    /** The outbound call, for {@code handler=http}. */
    HttpConfig http();

    /** Attempts a job gets before it is parked. Defaults to {@code JOB_ATTEMPTS}, else 5. */
    @WithDefault("${JOB_ATTEMPTS:5}")
    int attempts();

    /**
     * Base delay before the second attempt; later attempts double it, capped by
     * {@code max-backoff}. Defaults to {@code RETRY_BACKOFF_MS} milliseconds, else 1000 ms.
     */
    @WithDefault("${RETRY_BACKOFF_MS:1000}ms")
    Duration backoff();

    /** Upper bound of the delay between two attempts. Defaults to 5m. */
    @WithDefault("5m")
    Duration maxBackoff();

    /**
     * Longest wait a provider's {@code Retry-After} may impose on one job (0 to 7d); a longer hint
     * (a date decades away, a number of seconds no one means) is cut to this, and the cut logged,
     * so a provider can't hold a job for centuries. Defaults to 1h.
     */
    @WithDefault("1h")
    Duration maxRetryAfter();

    /** Share of the delay that is randomised (0 to 1), so retries don't arrive in step. Defaults to 0.2. */
    @WithDefault("0.2")
    double jitter();

    /**
     * The dead-letter stream. Defaults to {@code DLQ_NAME} when set, else {@code {<stream>}:dlq},
     * which shares the stream's Redis Cluster hash slot.
     */
    @WithDefault("${DLQ_NAME:}")
    Optional<String> dlq();

    /** Jobs handled at once by this process. Defaults to 16. */
    @WithDefault("16")
    int concurrency();

    /** Entries fetched per XREADGROUP. Defaults to the concurrency, at most 200. */
    Optional<Integer> batch();

    /** How long one XREADGROUP blocks when the stream is empty. Defaults to 2s. */
    @WithDefault("2s")
    Duration block();

    /**
     * How long a job may go without a heartbeat before another replica takes it over as
     * stalled (its consumer died). Running jobs renew their lease every third of this.
     * Defaults to 5m.
     */
    @WithDefault("5m")
    Duration visibilityTimeout();

    /**
     * How often the safety net looks for jobs whose backoff has passed and whose process died
     * before their retry (a live process claims its own retries on time, without polling). It
     * reads the retry consumer's entries only while the queue's pending summary, refreshed every
     * {@code redrive.gauge-interval}, shows more waiting than this process times itself, and takes
     * an entry only once it is a poll past due and no timer here stands for it. Defaults to 1s.
     */
    @WithDefault("1s")
    Duration retryPoll();

    /**
     * Whether redrive proposes, when the queue's circuit breaker closes after an outage, to redrive
     * the jobs the outage exhausted (README, "After an outage"): a proposal by {@code redrive} that
     * an operator approves or rejects, never a redrive that starts by itself. Defaults to true.
     */
    @WithDefault("true")
    boolean proposeAfterOutage();
}
