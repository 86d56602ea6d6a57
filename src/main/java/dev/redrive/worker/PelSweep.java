package dev.redrive.worker;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;

import org.jboss.logging.Logger;

import dev.redrive.redis.StreamAccess;
import dev.redrive.time.Timers;
import io.smallrye.mutiny.Uni;

/**
 * The one periodic walk over a group's pending entries that the retry scheduler, the stall
 * reclaimer and the receive-limit watch share: on each tick of its timer, read the next bounded
 * page with XPENDING IDLE from the cursor of {@link PelPages}, take what fits, act on it; one step
 * at a time, a Redis outage logged once ({@link OutageLog}), every timer cancelled by one
 * {@link #stop}. Each caller says only what differs: how often, whose entries, how idle, how many,
 * and what to do with them.
 */
final class PelSweep {

    /**
     * What one step looks for: entries pending under {@code owner} (null: anyone's) idle at least
     * {@code minIdle}, read {@code ask} at a time, of which the first {@code room} that
     * {@code wanted} accepts are taken.
     */
    record Look(String owner, Duration minIdle, int ask, int room, Predicate<StreamAccess.Seen> wanted) {
    }

    private final StreamAccess redis;
    private final Timers time;
    private final String stream;
    private final String group;
    private final PelPages pages;
    private final OutageLog outage;
    private final List<Timers.Timer> timers = new ArrayList<>();

    /** {@code what} names the walk for the outage log under {@code log}, e.g. "looking for due retries of orders". */
    PelSweep(StreamAccess redis, Timers time, String stream, String group, int pageSize, Logger log, String what) {
        this.redis = redis;
        this.time = time;
        this.stream = stream;
        this.group = group;
        this.pages = new PelPages(pageSize);
        this.outage = new OutageLog(log, what);
    }

    /** Runs {@code tick} every {@code period} (at least 1 ms) until {@link #stop}: a step, or its owner's other periodic work. */
    synchronized void every(Duration period, Runnable tick) {
        timers.add(time.every(period, tick));
    }

    synchronized void stop() {
        timers.forEach(Timers.Timer::cancel);
        timers.clear();
    }

    int pageSize() {
        return pages.size();
    }

    /**
     * Reads the next page, hands what {@code look} takes from it to {@code act}, and the result to
     * {@code done}; does nothing while the previous step still runs. The page is released before
     * {@code done} runs, so what {@code done} sets off (slots freed at once) may start the next step.
     */
    <T> void step(Look look, Function<List<StreamAccess.Seen>, Uni<T>> act, Consumer<T> done) {
        String from = pages.begin();
        if (from == null) {
            return;
        }
        redis.pending(stream, group, look.owner(), look.minIdle(), from, look.ask())
                .flatMap(page -> act.apply(pages.take(page, look.ask(), look.room(), look.wanted())))
                .subscribe().with(result -> {
                    pages.end();
                    outage.worked();
                    done.accept(result);
                }, error -> {
                    pages.end();
                    outage.failed(error);
                });
    }

    /**
     * A step that claims what it takes for {@code worker} ({@link QueueWorker#claim}: each entry
     * only if still pending under the owner seen and idle at least {@code claimIdle}), hands the
     * claim to the worker (the claimed entries run, the trimmed ones are parked as missing), then
     * to {@code done}.
     */
    void claimFor(QueueWorker worker, Look look, Duration claimIdle, Consumer<StreamAccess.Claimed> done) {
        step(look, taken -> worker.claim(taken, claimIdle), claimed -> {
            worker.took(claimed);
            done.accept(claimed);
        });
    }
}
