package dev.redrive.redrive;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import dev.redrive.config.QueueSpec;
import dev.redrive.config.RedriveConfig;
import dev.redrive.deadletter.ReplayTargets;
import dev.redrive.job.EntryIds;
import dev.redrive.redis.StreamInfo;
import dev.redrive.time.Timers;

/**
 * The canary's verdict: once every canary job is done or parked again, the share that came back
 * (the task's {@code failed}, counted by dead-letter.lua) against the task's limit. Too many, or
 * jobs still unsettled after redrive.replay.canary-timeout, and it aborts the task: the rest stay
 * parked.
 */
@ApplicationScoped
class Canary {

    private static final Logger LOG = Logger.getLogger(Canary.class);
    private static final Duration POLL = Duration.ofMillis(100);

    @Inject
    RedriveTaskStore store;

    @Inject
    StreamInfo groups;

    @Inject
    ReplayTargets targets;

    @Inject
    RedisWait wait;

    @Inject
    RedriveConfig config;

    /** The deadline is on the monotonic clock: a wall clock set back would stretch it. */
    @Inject
    Timers time;

    /**
     * Waits for the canary's jobs and judges them; true when the rest may move. False when the
     * task stopped: aborted here, or cancelled, taken over or stopped meanwhile.
     */
    boolean passed(RedriveTask task, Lease lease, Stop stop) throws InterruptedException {
        // A settled job stays settled (acked: done or parked again), so each is looked at until it
        // settles and not after: a canary of thousands costs its unsettled jobs per poll, not all.
        Deque<String> waiting = new ArrayDeque<>(store.canaryJobs(task));
        Duration timeout = config.replay().canaryTimeout();
        long deadline = time.elapsedNanos() + timeout.toNanos();
        while (true) {
            while (!waiting.isEmpty() && settled(waiting.peek())) {
                waiting.poll();
            }
            if (waiting.isEmpty()) {
                break;
            }
            if (time.elapsedNanos() - deadline > 0) {
                store.finish(task, RedriveState.ABORTED, "the canary's jobs did not finish within " + timeout);
                return false;
            }
            if (!lease.held() || !stop.pause(POLL)) {
                return false;
            }
        }
        RedriveTask now = store.get(task.dlq(), task.id());
        long moved = now.canaryMoved();
        long failed = now.failed();
        double rate = moved == 0 ? 0 : (double) failed / moved;
        if (rate > now.maxRefailRate()) {
            if (store.finish(task, RedriveState.ABORTED, String.format("canary: %d of %d jobs came back (%.0f%% > %.0f%%); "
                    + "the rest stay parked", failed, moved, rate * 100, now.maxRefailRate() * 100))) {
                LOG.warnf("redrive %s of %s aborted after its canary: %d of %d jobs came back", task.id(), task.dlq(),
                        failed, moved);
            } // else cancelled meanwhile: it stays cancelled
            return false;
        }
        return true;
    }

    /** A replayed job is settled once its queue's group has delivered it and it is no longer pending. */
    private boolean settled(String streamAndId) {
        int sep = streamAndId.lastIndexOf(' ');
        String stream = streamAndId.substring(0, sep);
        String id = streamAndId.substring(sep + 1);
        QueueSpec queue = targets.queueOf(stream);
        if (queue == null) {
            return true; // no group of ours reads it: nothing to wait for
        }
        if (wait.on(groups.isPending(stream, queue.group(), id))) {
            return false;
        }
        Optional<String> delivered = wait.on(groups.lastDelivered(stream, queue.group()));
        return delivered.isPresent() && EntryIds.compare(delivered.get(), id) >= 0;
    }
}
