package dev.redrive.config;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * Everything redrive reads from configuration. The four names from the source documents
 * ({@code JOB_ATTEMPTS}, {@code RETRY_BACKOFF_MS}, {@code DLQ_NAME}, {@code MAX_RECEIVE_COUNT})
 * feed the defaults here, so one env example drives every queue. Values are checked once at
 * start-up by {@link QueueRegistry}, which names the offending property.
 */
@ConfigMapping(prefix = "redrive")
public interface RedriveConfig {

    /** The queues this process works on, by name. Defaults to none. */
    Map<String, QueueConfig> queues();

    /**
     * Consumer name of this process in every group. Defaults to the pod's hostname plus the
     * process id, so two processes never share a name.
     */
    Optional<String> consumerName();

    /**
     * How long a SIGTERM waits for in-flight jobs before the process exits; unfinished jobs stay
     * pending for stall recovery. Keep it below Kubernetes' terminationGracePeriodSeconds.
     * Defaults to 30s.
     */
    @WithDefault("30s")
    Duration shutdownTimeout();

    /**
     * Consumer groups redrive does not run but polices: an entry delivered more than
     * {@code max-receive-count} times without an ack is parked (SQS's maxReceiveCount).
     * Defaults to none.
     */
    Map<String, WatchConfig> watch();

    /**
     * Longest an operator API request waits on Redis (each wait of a redrive's runner too) before
     * it answers 503 with Retry-After: a frozen Redis must not hang callers. Defaults to 5s.
     */
    @WithDefault("5s")
    Duration redisTimeout();

    /** How operator writes wait for Redis replicas. */
    Redis redis();

    /** How often gauges (dead-letter depth, pending, lag) are refreshed. Defaults to 5s. */
    @WithDefault("5s")
    Duration gaugeInterval();

    /** The operator API's replay, redrive and discard. */
    Replay replay();

    /** How much of a parked job one read of the operator API carries, and how many such reads run at once. */
    Reads reads();

    /** The operator console served under /console (docs/CONSOLE.md). */
    Console console();

    /**
     * Origins ({@code scheme://host[:port]}), besides the service's own, whose pages may send state
     * changes to the API, {@code /mcp} and the console: e.g. the public address of a proxy that
     * forwards to redrive under another Host. A request that changes something (and any request to
     * {@code /mcp}) whose Origin is neither is refused with 403 (api/RequestOrigins). Defaults to none.
     */
    Optional<List<String>> allowedOrigins();

    /** redrive's part of tracing (the rest is quarkus.otel.*; README, "Tracing"). */
    Tracing tracing();

    /** What a fresh process runs before its queues start (README, "A fresh process"). */
    WarmUp warmUp();

    interface WarmUp {
        /**
         * Jobs of redrive's own run through its own paths (read, ack, an immediate retry, a retry
         * after a Retry-After, its claim) on a private stream before any queue starts, so the JIT
         * has compiled them before the first real job: a fresh JVM runs its first retries late
         * while it compiles. No handler of yours runs; readiness stays DOWN meanwhile. 0 turns it
         * off. Defaults to 30000 (bench/README.md, "A fresh process": what more or fewer cost and buy).
         */
        @WithDefault("30000")
        int jobs();

        /** The longest the warm-up holds the queues' start; after it they start all the same. Defaults to 30s. */
        @WithDefault("30s")
        Duration timeout();
    }

    interface Tracing {
        /**
         * Shortest time between two WARN lines telling dropped spans (each says how many since the
         * last); drops in between wait for the next line. 1s to 1h. Defaults to 1m.
         */
        @WithDefault("1m")
        Duration dropWarningInterval();
    }

    interface Redis {
        /**
         * Replicas that must confirm an operator's write (a replay, a discard, each step of a bulk
         * redrive) before the API answers success: redrive sends {@code WAIT <n> <wait-timeout>} on
         * the connection that ran the script, so a 2xx survives the primary's failover. Too few
         * replicas in time: the API answers 503 {@code /problems/not-replicated} (the write
         * happened on the primary), a redrive's runner pauses before its next step. 0 waits for
         * none; refused on Redis Cluster, where WAIT can't follow the script's node here.
         * Defaults to 0.
         */
        @WithDefault("0")
        int waitReplicas();

        /**
         * Longest a write waits for {@code wait-replicas} replicas; shorter than
         * {@code redrive.redis-timeout}, which bounds the whole request. Defaults to 1s.
         */
        @WithDefault("1s")
        Duration waitTimeout();
    }

    /** Proposed bulk redrives, which another operator approves (four eyes). */
    Proposals proposals();

    /** Who may start a bulk redrive without a second person. */
    Redrives redrives();

    /** What agents (callers through /mcp) may do beyond reading and proposing. */
    Agents agents();

    interface Proposals {
        /** How long a proposal waits for its approval before it expires undecided. Defaults to 24h. */
        @WithDefault("24h")
        Duration ttl();

        /**
         * Most dead-letter entries examined to count what a proposal matches (its {@code matched});
         * past it the count is a lower bound, flagged {@code matchedComplete: false}. Defaults to 100000.
         */
        @WithDefault("100000")
        int countLimit();
    }

    interface Redrives {
        /**
         * When true, POST /dlq/{dlq}/redrives by anyone answers 202 with a proposal that another
         * operator must approve instead of starting the task (dry runs, single replays and
         * discards stay direct). Defaults to false.
         */
        @WithDefault("false")
        boolean requireApproval();
    }

    interface Agents {
        /**
         * When true, a dlq-automation caller may use the MCP tool {@code redrive} to start a bulk
         * redrive directly (never while redrive.redrives.require-approval is true); otherwise
         * agents propose. Defaults to false.
         */
        @WithDefault("false")
        boolean mayRedrive();

        /**
         * About how many records of MCP calls that move nothing (reads, refusals, calls about no
         * known stream) redrive:mcp-calls keeps, trimmed as each is added (XADD MAXLEN ~), so a
         * polling agent can't fill Redis; about 200 bytes each. 100 to 10000000. Defaults to 100000.
         */
        @WithDefault("100000")
        long readAuditRecords();
    }

    /**
     * Failed logins (the console's form and the API's Basic), throttled per user and per client
     * address (README "Logins"; RUNBOOK "A user is locked out").
     */
    LoginsConfig logins();

    interface Console {
        /**
         * Names of a parked job's fields (as the producer wrote them, e.g. {@code card,token})
         * that the console shows masked; an operator may reveal them on one entry, and the
         * reveal is audited. Matched exactly, case-sensitive. Defaults to none.
         */
        Optional<List<String>> redactFields();

        /**
         * How often the overview refreshes itself, and a running redrive's progress twice as
         * often; at least 1s. Defaults to 5s.
         */
        @WithDefault("5s")
        Duration refresh();
    }

    interface Reads {
        /**
         * Bytes of each value shown by listings, entry views and the audit trail; a longer value is
         * cut in Redis and shown with its full size (fetch it whole from {@code .../fields/<name>}).
         * Defaults to 64 KiB.
         */
        @WithDefault("65536")
        int valueBytes();

        /**
         * Bytes of one entry in a view, names and values together (fields past it are left out and
         * counted); also the most a listing page carries, and the slice in which a raw value is
         * streamed. Defaults to 1 MiB.
         */
        @WithDefault("1048576")
        int entryBytes();

        /**
         * Reads of dead letters (listings, entries, raw values, the audit trail) in flight at once;
         * one more is refused with 503 and Retry-After, so viewers can't exhaust the heap.
         * Defaults to 8.
         */
        @WithDefault("8")
        int concurrent();

        /**
         * How long a raw value's download waits for its client to take one slice (and Redis to
         * read the next); a client that takes nothing for longer is cut off, so a stalled or
         * hostile reader can't keep a read permit. Defaults to 30s: a slice of 1 MiB then needs
         * about 35 KB/s.
         */
        @WithDefault("30s")
        Duration stallTimeout();
    }

    interface Replay {
        /**
         * Streams a replay may write to besides those of the configured queues; a record whose
         * origin is neither is refused with 422. Defaults to none.
         */
        Optional<List<String>> allowedStreams();

        /**
         * Whether callers with only the {@code dlq-automation} role may replay single entries.
         * Defaults to {@code REPLAY_AUTOMATION_ENABLED}, else false.
         */
        @WithDefault("${REPLAY_AUTOMATION_ENABLED:false}")
        boolean automationEnabled();

        /**
         * A job parked again after this many replays is flagged {@code repeatOffender} in
         * listings. Defaults to 3.
         */
        @WithDefault("3")
        int repeatOffenderAfter();

        /** Largest replay or redrive request body, patch included, in bytes. Defaults to 1 MiB. */
        @WithDefault("1048576")
        int maxBodyBytes();

        /** How long the answer to a replay sent with an Idempotency-Key is kept. Defaults to 24h. */
        @WithDefault("24h")
        Duration idempotencyTtl();

        /**
         * Most dead-letter entries one listing request examines (filtered out or not) before it
         * answers with a cursor, so no request walks a whole stream. Defaults to 1000.
         */
        @WithDefault("1000")
        int scanLimit();

        /** How long a redrive's canary waits for its jobs to finish or come back. Defaults to 5m. */
        @WithDefault("5m")
        Duration canaryTimeout();

        /**
         * How long a redrive's runner holds its lease; a task whose runner stopped is taken over
         * once it passes. Defaults to 15s.
         */
        @WithDefault("15s")
        Duration redriveLease();

        /** How long a finished redrive's progress is kept in Redis. Defaults to 7d. */
        @WithDefault("7d")
        Duration redriveRetention();
    }
}
