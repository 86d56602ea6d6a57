package dev.redrive.worker;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.jboss.logging.Logger;

import dev.redrive.config.QueueSpec;
import dev.redrive.redis.StreamAccess;
import dev.redrive.time.Timers;

/**
 * Stall recovery, a lifecycle event and not the dead-letter policy: a consumer that died (kill -9,
 * OOM, node loss) leaves jobs pending under its name; once idle past the visibility timeout, any
 * live replica takes them over as a new attempt. The other half is the lease: this process renews
 * its running jobs every third of the timeout (XCLAIM JUSTID, no delivery counted), so a slow job
 * is never taken from a live worker.
 * <p>
 * XAUTOCLAIM would take entries waiting for their retry and this process's running ones, and it drops
 * trimmed entries from the PEL before anyone could park them; XPENDING with IDLE, a cursor and a
 * bounded page, then claim.lua, does neither.
 */
final class StallReclaimer {

    private static final Logger LOG = Logger.getLogger(StallReclaimer.class);
    private static final int PAGE = 100;

    private final QueueWorker worker;
    private final StreamAccess redis;
    private final QueueSpec spec;
    private final PelSweep sweep;
    /** Whether the last pending summary showed entries that may have stalled; until one came, maybe. */
    private volatile boolean maybeStalled = true;
    /** Running jobs found trimmed by a heartbeat and logged, so each is logged once. */
    private final Set<String> reported = ConcurrentHashMap.newKeySet();

    StallReclaimer(QueueWorker worker, StreamAccess redis, Timers time) {
        this.worker = worker;
        this.redis = redis;
        this.spec = worker.spec();
        this.sweep = new PelSweep(redis, time, spec.stream(), spec.group(), PAGE, LOG, "stall recovery on " + spec.stream());
    }

    void start() {
        Duration vt = spec.visibilityTimeout();
        sweep.every(vt.dividedBy(3), this::heartbeat);
        sweep.every(Duration.ofMillis(Math.max(100, Math.min(vt.toMillis() / 4, 30_000))), () -> {
            reclaim();
            forgetGoneConsumers();
        });
    }

    void stop() {
        sweep.stop();
    }

    /**
     * Renews the lease of every running job of this process. A job whose entry was trimmed while it
     * runs can't be renewed (only XCLAIM restarts an entry's idle time, and it would drop the entry
     * from the PEL): its outcome decides (acked if it succeeds, parked as missing if it fails), and
     * it is logged once.
     */
    private void heartbeat() {
        List<String> running = worker.runningIds();
        reported.retainAll(running);
        if (running.isEmpty()) {
            return;
        }
        redis.transfer(spec.stream(), spec.group(), worker.consumer(), running, -1).subscribe().with(trimmed -> {
            for (StreamAccess.Seen seen : trimmed) {
                if (reported.add(seen.id())) {
                    LOG.warnf("job %s/%s was trimmed from its stream while it runs (attempt %d): its lease can't be "
                            + "renewed; if it succeeds it is acked, if it fails it is parked as missing; should it run "
                            + "longer than %s, another replica's stall recovery parks it as missing", spec.stream(),
                            seen.id(), seen.deliveryCount(), spec.visibilityTimeout());
                }
            }
        }, e -> LOG.warnf("renewing the lease of %d running jobs of %s failed: %s", running.size(), spec.stream(),
                e.getMessage()));
    }

    /**
     * Learns from the group's pending summary whether anything may have stalled: entries of another
     * consumer than the retry consumer and this process, or more of this process's own than it runs.
     */
    void observe(Map<String, Long> pendingByConsumer) {
        boolean maybe = false;
        for (var owner : pendingByConsumer.entrySet()) {
            String name = owner.getKey();
            if (name.equals(worker.consumer()) ? owner.getValue() > worker.runningIds().size()
                    : !name.equals(Consumers.RETRY) && owner.getValue() > 0) {
                maybe = true;
            }
        }
        maybeStalled = maybe;
    }

    private void reclaim() {
        if (!maybeStalled) {
            return;
        }
        int free = worker.freeSlots();
        if (free <= 0) {
            return;
        }
        Duration vt = spec.visibilityTimeout();
        sweep.claimFor(worker, new PelSweep.Look(null, vt, PAGE, free, this::stalled), vt, claimed -> {
            if (!claimed.entries().isEmpty() || !claimed.gone().isEmpty()) {
                LOG.infof("stall recovery on %s: took over %d jobs idle for more than %s from stopped consumers "
                        + "(%d more were trimmed and are parked as missing)", spec.stream(), claimed.entries().size(), vt,
                        claimed.gone().size());
            }
        });
    }

    /**
     * Another consumer's entry, or this process's own when nothing here runs it: an ack or park that
     * failed while Redis was away leaves it pending under this consumer with no heartbeat.
     */
    private boolean stalled(StreamAccess.Seen seen) {
        return !seen.owner().equals(Consumers.RETRY)
                && (!seen.owner().equals(worker.consumer()) || !worker.isRunning(seen.id()));
    }

    /** Removes consumers idle past the visibility timeout that own nothing; never one with pending entries. */
    private void forgetGoneConsumers() {
        redis.forgetConsumers(spec.stream(), spec.group(), spec.visibilityTimeout(),
                List.of(worker.consumer(), Consumers.RETRY)).subscribe().with(names -> {
                    if (!names.isEmpty()) {
                        LOG.infof("removed gone consumers %s from %s/%s: idle past %s with nothing pending", names,
                                spec.stream(), spec.group(), spec.visibilityTimeout());
                    }
                }, e -> LOG.debugf("removing gone consumers of %s failed: %s", spec.stream(), e.getMessage()));
    }
}
