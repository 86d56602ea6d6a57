package dev.redrive.worker;

import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

import org.jboss.logging.Logger;

import dev.redrive.config.QueueSpec;
import dev.redrive.redis.BlockingReader;
import dev.redrive.redis.StreamAccess;
import dev.redrive.time.Timers;

/**
 * How a queue reads new entries: without blocking while its stream has any (on the shared pool),
 * and once it has none by waiting in its group's {@link BlockingReader}, which holds no connection
 * of the pool (a blocked read per queue would hold one each, and a thousand queues would starve
 * the acks and claims behind them).
 */
record NewEntries(QueueSpec spec, String consumer, StreamAccess redis, BlockingReader reader, Timers time) {

    private static final Logger LOG = Logger.getLogger(NewEntries.class);
    private static final Duration REDIS_ERROR_PAUSE = Duration.ofSeconds(1);

    /**
     * Up to {@code count} new entries to {@code answer}: at once when there are some, else once some
     * arrive (or none, when {@link #stopWaiting} ends the wait or {@code mayWait} says no). After a
     * failure {@code answer} gets none after a pause; when the group is gone, at once, and {@code
     * retry} runs once it is created again.
     */
    void read(int count, BooleanSupplier mayWait, Consumer<List<StreamAccess.Entry>> answer, Runnable retry) {
        redis.readNew(spec.stream(), spec.group(), consumer, count).subscribe().with(entries -> {
            if (entries.isEmpty() && mayWait.getAsBoolean()) {
                reader.join(spec.stream(), count, spec.block(), answer);
                // A stop between the look and the join left before this stream joined: leave now,
                // or the stream would wait in its reader for good (a warm-up's, gone 10 s later,
                // would fail the shared read of every queue with NOGROUP).
                if (!mayWait.getAsBoolean()) {
                    reader.leave(spec.stream());
                }
            } else {
                answer.accept(entries);
            }
        }, error -> {
            if (String.valueOf(error.getMessage()).startsWith("NOGROUP")) {
                answer.accept(List.of());
                groupGone(retry);
                return;
            }
            LOG.warnf("reading %s failed (%s); trying again in %s", spec.stream(), error.getMessage(), REDIS_ERROR_PAUSE);
            // The answer frees the read's slots, and the worker reads again at once: answered now,
            // a Redis that refuses at once (a dead node, a cluster slot whose replica is not yet
            // promoted) was read, and this logged, thousands of times a second. So the pause comes first.
            time.after(REDIS_ERROR_PAUSE, () -> answer.accept(List.of()));
        });
    }

    /**
     * The stream or its group is gone: someone deleted it, or Redis came back without its data.
     * The group is created again from the stream's start, as at start-up: entries added since are
     * read, none skipped (those read before and still in the stream run again: at least once).
     */
    private void groupGone(Runnable retry) {
        LOG.warnf("queue %s: group %s of %s is gone (the stream or the group was deleted, or Redis lost its data); "
                + "creating it again from the stream's start", spec.name(), spec.group(), spec.stream());
        redis.ensureGroup(spec.stream(), spec.group()).subscribe().with(ok -> retry.run(),
                e -> time.after(REDIS_ERROR_PAUSE, retry));
    }

    /** Ends a wait for new entries: its answer comes at once, with none (or with what was just read). */
    void stopWaiting() {
        reader.leave(spec.stream());
    }
}
