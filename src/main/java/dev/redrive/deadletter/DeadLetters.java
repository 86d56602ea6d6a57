package dev.redrive.deadletter;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.redrive.config.QueueSpec;
import dev.redrive.job.Job;
import dev.redrive.redis.RedisTopology;
import dev.redrive.redis.StreamAccess;
import dev.redrive.retry.Failure;
import io.smallrye.mutiny.Uni;

/** Parks jobs: the dead-letter move, and the log line that tells an operator what to do next. */
@ApplicationScoped
public class DeadLetters {

    @Inject
    StreamAccess redis;

    @Inject
    Clock clock;

    @Inject
    RedisTopology topology;

    private static final long LOG_WINDOW_SECONDS = 10;
    private final ParkLog log = new ParkLog();

    /** Summarised park lines are reported when their window closes, whether or not more parks come. */
    void startLogWindows(@jakarta.enterprise.event.Observes io.quarkus.runtime.StartupEvent event,
            io.vertx.mutiny.core.Vertx vertx) {
        vertx.setPeriodic(LOG_WINDOW_SECONDS * 1000, t -> log.closeWindow(LOG_WINDOW_SECONDS));
    }

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
                            log.parked(deadLetters, records.get(i), ids.get(i));
                        }
                    }
                });
    }


    public Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MILLIS);
    }
}
