package dev.redrive.deadletter;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

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

    /** The record of a job about to be parked from a queue. */
    public DeadLetterRecord record(QueueSpec queue, Job job, String consumer, String failureKind, Failure failure,
            Instant lastAttemptAt) {
        return DeadLetterRecord.of(job, queue.group(), consumer, failureKind, failure, lastAttemptAt, now());
    }

    /**
     * The bulk redrive that sent this job back, whose failed count a park raises, when one script
     * may touch it with the stream; null for a job no redrive sent.
     */
    public String redriveTask(Job job, String stream) {
        String key = RedriveTag.taskKey(job);
        return key != null && topology.oneScript(stream, key) ? key : null;
    }

    /** Parks a pending entry of any group, with a record built by the caller. */
    public Uni<String> park(String deadLetters, DeadLetterRecord record) {
        return parkAll(deadLetters, List.of(record), null).map(ids -> ids.get(0));
    }

    /**
     * Copies jobs of one stream and group with their records into a dead-letter stream and acks
     * them: each job in one atomic step with its record (dead-letter.lua). Returns one dead-letter
     * entry id per record, or null where the job was no longer pending (already acked or parked by
     * someone else: it is never parked twice).
     *
     * @param redriveTask with a single record: the bulk redrive that sent the job back, or null
     */
    public Uni<List<String>> parkAll(String deadLetters, List<DeadLetterRecord> records, String redriveTask) {
        DeadLetterRecord first = records.get(0);
        List<StreamAccess.Park> parks = records.stream().map(r -> new StreamAccess.Park(r.originId(), r.failureKind(),
                r.fingerprint().id(), r.fingerprint().text(), r.pairs())).toList();
        return redis.deadLetter(first.originStream(), first.group(), deadLetters, parks, redriveTask)
                .invoke(ids -> {
                    for (int i = 0; i < ids.size(); i++) {
                        if (ids.get(i) != null) {
                            logParked(deadLetters, records.get(i), ids.get(i));
                        }
                    }
                });
    }

    private static void logParked(String deadLetters, DeadLetterRecord record, String dlqId) {
        LOG.warnf("parked job %s/%s (%s) after %d of %d attempts: %s: %s; it is %s/%s, replay with "
                + "POST /dlq/%s/entries/%s/replay once the cause is fixed",
                record.originStream(), record.originId(), record.failureKind(), record.attempts(),
                record.maxAttempts(), record.errorType(), record.reason(), deadLetters, dlqId,
                URLEncoder.encode(deadLetters, StandardCharsets.UTF_8), dlqId);
    }

    public Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MILLIS);
    }
}
