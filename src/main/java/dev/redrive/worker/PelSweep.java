package dev.redrive.worker;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;

import dev.redrive.redis.StreamAccess;
import io.smallrye.mutiny.Uni;

/**
 * The one walk over a group's pending entries that the retry scheduler, the stall reclaimer and
 * the receive-limit watch share: read the next bounded page with XPENDING IDLE from the cursor of
 * {@link PelPages}, take what fits, act on it; one step at a time, a Redis outage logged once
 * ({@link OutageLog}). Each caller says only what differs: whose entries, how idle, how many, and
 * what to do with them.
 */
final class PelSweep {

    /**
     * What one step looks for: entries pending under {@code owner} (null: anyone's) idle at least
     * {@code minIdle}, read {@code ask} at a time, of which the first {@code room} that
     * {@code wanted} accepts are taken.
     */
    record Look(String owner, Duration minIdle, int ask, int room, Predicate<StreamAccess.Seen> wanted) {
    }

    private static final StreamAccess.Claimed NOTHING = new StreamAccess.Claimed(List.of(), List.of());

    private final StreamAccess redis;
    private final String stream;
    private final String group;
    private final PelPages pages;
    private final OutageLog outage;

    PelSweep(StreamAccess redis, String stream, String group, int pageSize, OutageLog outage) {
        this.redis = redis;
        this.stream = stream;
        this.group = group;
        this.pages = new PelPages(pageSize);
        this.outage = outage;
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
     * A step that claims what it takes for {@code worker} with claim.lua (each entry only if still
     * pending under the owner seen and idle at least {@code claimIdle}), hands the claim to the
     * worker (the claimed entries run, the trimmed ones are parked as missing), then to {@code done}.
     */
    void claimFor(QueueWorker worker, Clock clock, Look look, Duration claimIdle, Consumer<StreamAccess.Claimed> done) {
        step(look, taken -> taken.isEmpty() ? Uni.createFrom().item(NOTHING)
                : redis.claim(stream, group, worker.consumer(), clock.millis(), claimIdle, taken),
                claimed -> {
                    worker.took(claimed);
                    done.accept(claimed);
                });
    }
}
