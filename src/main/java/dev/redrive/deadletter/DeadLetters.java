package dev.redrive.deadletter;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import dev.redrive.config.QueueSpec;
import dev.redrive.job.Job;
import dev.redrive.redis.RedisTopology;
import dev.redrive.redis.StreamAccess;
import dev.redrive.retry.Failure;
import io.smallrye.mutiny.Uni;

/** Parks jobs: the dead-letter move, and the log line that tells an operator what to do next. */
@ApplicationScoped
public class DeadLetters {

    private static final Logger LOG = Logger.getLogger(DeadLetters.class);

    @Inject
    StreamAccess redis;

    @Inject
    Clock clock;

    @Inject
    RedisTopology topology;

    /**
     * Copies the job with its record into the queue's dead-letter stream and acks it, in one
     * script. Returns the dead-letter entry id, or null when the job was no longer pending
     * (already acked or parked by someone else: it is never parked twice).
     */
    public Uni<String> park(QueueSpec queue, Job job, String consumer, String failureKind, Failure failure,
            Instant lastAttemptAt) {
        return park(queue.deadLetters(), DeadLetterRecord.of(job, queue.group(), consumer, failureKind, failure,
                lastAttemptAt, now()), redriveTask(job, queue.stream()));
    }

    /** The task to count a re-parked job against, when one script may touch it with the stream. */
    private String redriveTask(Job job, String stream) {
        String key = RedriveTag.taskKey(job);
        return key != null && topology.oneScript(stream, key) ? key : null;
    }

    /** Parks a pending entry of any group, with a record built by the caller. */
    public Uni<String> park(String deadLetters, DeadLetterRecord record) {
        return park(deadLetters, record, null);
    }

    /** @param redriveTask the bulk redrive that sent this job back (counts it as failed again), or null */
    private Uni<String> park(String deadLetters, DeadLetterRecord record, String redriveTask) {
        return redis.deadLetter(record.originStream(), record.group(), deadLetters, record.originId(),
                record.failureKind(), record.fingerprint().id(), record.fingerprint().text(), record.pairs(),
                redriveTask)
                .invoke(dlqId -> {
                    if (dlqId != null) {
                        LOG.warnf("parked job %s/%s (%s) after %d of %d attempts: %s: %s; it is %s/%s, replay with "
                                + "POST /dlq/%s/entries/%s/replay once the cause is fixed",
                                record.originStream(), record.originId(), record.failureKind(), record.attempts(),
                                record.maxAttempts(), record.errorType(), record.reason(), deadLetters, dlqId,
                                URLEncoder.encode(deadLetters, StandardCharsets.UTF_8), dlqId);
                    }
                });
    }

    public Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MILLIS);
    }
}
