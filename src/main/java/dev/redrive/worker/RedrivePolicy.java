package dev.redrive.worker;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.jboss.logging.Logger;

import dev.redrive.config.WatchSpec;
import dev.redrive.deadletter.DeadLetterRecord;
import dev.redrive.deadletter.DeadLetters;
import dev.redrive.deadletter.Fingerprint;
import dev.redrive.job.EntryIds;
import dev.redrive.job.Job;
import dev.redrive.redis.StreamAccess;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;

/**
 * SQS's maxReceiveCount for a consumer group redrive does not run (its consumers may be in any
 * language): walks the group's pending entries in bounded pages from a cursor and parks each one
 * delivered more than {@code max-receive-count} times. The park is dead-letter.lua, so record,
 * copy and ack are one step: a consumer acking at the same moment either wins (nothing is
 * parked) or loses (its XACK finds nothing); never both, never neither.
 */
final class RedrivePolicy {

    private static final Logger LOG = Logger.getLogger(RedrivePolicy.class);
    private static final int PAGE = 200;

    private final WatchSpec spec;
    private final StreamAccess redis;
    private final DeadLetters deadLetters;
    private final Periodic periodic;
    private final PelPages pages = new PelPages(PAGE);

    RedrivePolicy(WatchSpec spec, StreamAccess redis, DeadLetters deadLetters, Vertx vertx) {
        this.spec = spec;
        this.redis = redis;
        this.deadLetters = deadLetters;
        this.periodic = new Periodic(vertx);
    }

    void start() {
        periodic.every(spec.interval(), this::scan);
    }

    void stop() {
        periodic.cancel();
    }

    void scan() {
        String from = pages.begin();
        if (from == null) {
            return;
        }
        redis.pending(spec.stream(), spec.group(), null, java.time.Duration.ZERO, from, PAGE)
                .flatMap(page -> {
                    pages.advance(page);
                    List<Uni<String>> parks = new ArrayList<>();
                    for (StreamAccess.Seen seen : page) {
                        if (seen.deliveryCount() > spec.maxReceiveCount()) {
                            parks.add(redis.fields(spec.stream(), seen.id())
                                    .flatMap(fields -> deadLetters.park(spec.name(), spec.deadLetters(), record(seen, fields))));
                        }
                    }
                    return parks.isEmpty() ? Uni.createFrom().item(0)
                            : Uni.join().all(parks).andCollectFailures().map(List::size);
                })
                .subscribe().with(parked -> pages.end(), error -> {
                    pages.end();
                    LOG.warnf("checking receive counts of %s/%s failed: %s", spec.stream(), spec.group(), error.getMessage());
                });
    }

    /**
     * The record names the job as a queue's record does (the entry's job field, else the watch's
     * name); the fields are read only for that, dead-letter.lua copies the snapshot itself.
     */
    private DeadLetterRecord record(StreamAccess.Seen seen, Map<String, byte[]> fields) {
        String reason = "delivered " + seen.deliveryCount() + " times without an ack";
        Instant now = deadLetters.now();
        String job = new Job(spec.name(), spec.stream(), seen.id(), seen.deliveryCount(), spec.maxReceiveCount(), fields)
                .name();
        return new DeadLetterRecord(spec.stream(), seen.id(), spec.group(), seen.owner(), job, "max-receive",
                "max-receive", reason, Fingerprint.of("max-receive", reason), seen.deliveryCount(),
                spec.maxReceiveCount(), EntryIds.timestamp(seen.id()), null, now);
    }
}
