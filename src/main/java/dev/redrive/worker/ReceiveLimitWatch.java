package dev.redrive.worker;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.jboss.logging.Logger;

import dev.redrive.config.WatchSpec;
import dev.redrive.deadletter.DeadLetterRecord;
import dev.redrive.deadletter.DeadLetterWriter;
import dev.redrive.deadletter.Fingerprint;
import dev.redrive.job.EntryIds;
import dev.redrive.job.Job;
import dev.redrive.redis.StreamAccess;
import dev.redrive.redis.StreamInfo;
import dev.redrive.retry.FailureKind;
import dev.redrive.time.Timers;
import io.smallrye.mutiny.Uni;

/**
 * The receive-limit watch ({@code redrive.watch.<name>}): SQS's maxReceiveCount for a consumer
 * group redrive does not run (its consumers may be in any language). It walks the group's pending
 * entries with the {@link PelSweep} and parks each one delivered more than
 * {@code max-receive-count} times. The park is dead-letter.lua, so record, copy and ack are one
 * step: a consumer acking at the same moment either wins (nothing is parked) or loses (its XACK
 * finds nothing); never both, never neither. (Not a bulk redrive, which moves parked jobs back.)
 */
record ReceiveLimitWatch(WatchSpec spec, StreamInfo streams, DeadLetterWriter deadLetters, Timers time,
        PelSweep sweep) {

    private static final Logger LOG = Logger.getLogger(ReceiveLimitWatch.class);
    private static final int PAGE = 200;

    static ReceiveLimitWatch of(WatchSpec spec, StreamAccess redis, StreamInfo streams, DeadLetterWriter deadLetters,
            Timers time) {
        return new ReceiveLimitWatch(spec, streams, deadLetters, time, new PelSweep(redis, time, spec.stream(),
                spec.group(), PAGE, LOG, "checking receive counts of " + spec.stream() + "/" + spec.group()));
    }

    void start() {
        sweep.every(spec.interval(), this::scan);
    }

    void stop() {
        sweep.stop();
    }

    private void scan() {
        // No room to fill here: every entry of the page over the limit is parked, and the cursor
        // moves past the whole page.
        PelSweep.Look overLimit = new PelSweep.Look(null, Duration.ZERO, PAGE, Integer.MAX_VALUE,
                seen -> seen.deliveryCount() > spec.maxReceiveCount());
        sweep.step(overLimit, this::parkAll, parked -> {
        });
    }

    private Uni<Integer> parkAll(List<StreamAccess.Seen> over) {
        if (over.isEmpty()) {
            return Uni.createFrom().item(0);
        }
        List<Uni<String>> parks = new ArrayList<>(over.size());
        for (StreamAccess.Seen seen : over) {
            parks.add(streams.fields(spec.stream(), seen.id())
                    .flatMap(fields -> deadLetters.park(spec.name(), spec.deadLetters(), record(seen, fields))));
        }
        return Uni.join().all(parks).andCollectFailures().map(List::size);
    }

    /**
     * The record names the job as a queue's record does (the entry's job field, else the watch's
     * name); the fields are read only for that, dead-letter.lua copies the snapshot itself.
     */
    private DeadLetterRecord record(StreamAccess.Seen seen, Map<String, byte[]> fields) {
        String reason = "delivered " + seen.deliveryCount() + " times without an ack";
        Instant now = time.now();
        String job = new Job(spec.name(), spec.stream(), seen.id(), seen.deliveryCount(), spec.maxReceiveCount(), fields)
                .name();
        String kind = FailureKind.MAX_RECEIVE.wireName();
        return new DeadLetterRecord(spec.stream(), seen.id(), spec.group(), seen.owner(), job, kind, kind, reason,
                Fingerprint.of(kind, reason), seen.deliveryCount(),
                spec.maxReceiveCount(), EntryIds.timestamp(seen.id()), null, now);
    }
}
