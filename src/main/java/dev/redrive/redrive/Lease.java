package dev.redrive.redrive;

import dev.redrive.time.Timers;

/**
 * A runner's hold on a task, renewed at most twice a second through redrive-claim.lua: often
 * enough for the lease (redrive.replay.redrive-lease), and how a cancel or a takeover is noticed
 * (each script step also refuses to run for a runner that no longer holds the task). A stopped run
 * holds nothing, whatever Redis says: the lease it gave up would otherwise be renewed by itself.
 * The half second is on the monotonic clock: a wall clock set back an hour would otherwise skip
 * every renewal for that hour, and the lease would run out under a live runner.
 */
final class Lease {

    private static final long RENEW_EVERY_MILLIS = 500;

    private final RedriveTaskStore store;
    private final Timers time;
    private final String dlq;
    private final String id;
    private final String runner;
    private final Stop stop;
    private long renewedAt;

    Lease(RedriveTaskStore store, Timers time, RedriveTask task, String runner, Stop stop) {
        this.store = store;
        this.time = time;
        this.dlq = task.dlq();
        this.id = task.id();
        this.runner = runner;
        this.stop = stop;
        this.renewedAt = time.elapsedMillis() - RENEW_EVERY_MILLIS - 1;
    }

    boolean held() {
        if (stop.requested()) {
            return false;
        }
        long now = time.elapsedMillis();
        if (now - renewedAt <= RENEW_EVERY_MILLIS) {
            return true;
        }
        if (!store.claim(dlq, id, runner)) {
            return false;
        }
        renewedAt = now;
        return true;
    }
}
