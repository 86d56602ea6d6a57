package dev.redrive.redrive;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import org.eclipse.microprofile.context.ManagedExecutor;
import org.eclipse.microprofile.context.ThreadContext;
import org.jboss.logging.Logger;

import dev.redrive.config.ProcessIdentity;
import dev.redrive.config.RedriveConfig;
import dev.redrive.deadletter.DeadLetterException;
import dev.redrive.deadletter.ReplayTargets;
import dev.redrive.time.Timers;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.context.api.ManagedExecutorConfig;

/**
 * Runs this process' share of the bulk redrives, each on a thread of Quarkus' managed executor:
 * the tasks it starts, and every unfinished task whose runner is gone (its lease ran out), looked
 * for at start-up and then every lease period, so a task whose pod died resumes on a live replica
 * without waiting for a restart. On shutdown it stops its runs and gives up their leases at once,
 * so the next process (or this one restarted) resumes them from their stored cursors.
 */
@ApplicationScoped
public class RedriveRunner {

    private static final Logger LOG = Logger.getLogger(RedriveRunner.class);

    /**
     * Quarkus builds and shuts it down. A run outlives the request that started it, so it takes
     * none of that request's contexts along.
     */
    @Inject
    @ManagedExecutorConfig(propagated = {}, cleared = ThreadContext.ALL_REMAINING)
    ManagedExecutor executor;

    @Inject
    TaskDriver driver;

    @Inject
    RedriveTaskStore store;

    @Inject
    ReplayTargets targets;

    @Inject
    RedriveConfig config;

    @Inject
    ProcessIdentity identity;

    @Inject
    Timers time;

    /**
     * This process' runs, by {@code <dead-letter stream>/<task id>}. A run is stopped through its
     * {@link Stop}, not by interrupting the executor's thread (a shared worker): it notices within
     * a step or a wait, each bounded by redrive.redis-timeout.
     */
    private final Map<String, Stop> local = new ConcurrentHashMap<>();

    /**
     * Runs of a task in a row that this process saw fail on the task's own keys (a key of another
     * type): retrying such a run can't help, and it would hold the dead-letter stream (a new redrive
     * answers 409) for good. After {@link #MAX_STUCK_RUNS} the task is aborted with the reason.
     */
    private final Map<String, Integer> stuck = new ConcurrentHashMap<>();
    static final int MAX_STUCK_RUNS = 5;

    /** The periodic look for abandoned tasks; cancelled at shutdown, so none starts on a stopping executor. */
    private volatile Timers.Timer lookTimer = Timers.Timer.NONE;

    void onStart(@Observes @Priority(20) StartupEvent event) {
        executor.execute(this::resumeAbandoned);
        lookTimer = time.every(Duration.ofMillis(Math.max(1000, config.replay().redriveLease().toMillis())),
                () -> executor.execute(this::resumeAbandoned));
    }

    void onStop(@Observes ShutdownEvent event) {
        lookTimer.cancel();
        releaseAll();
    }

    /** Takes over the unfinished tasks whose lease has run out: what a start-up does. */
    void resumeAbandoned() {
        for (String dlq : targets.deadLetterStreams()) {
            try {
                for (String id : store.ids(dlq)) {
                    if (!local.containsKey(key(dlq, id)) && store.claim(dlq, id, identity.runner())) {
                        LOG.infof("resuming redrive %s of %s from its stored cursor", id, dlq);
                        launch(dlq, id);
                    }
                }
            } catch (RuntimeException e) {
                LOG.warnf("could not look for unfinished redrives of %s: %s", dlq, e.getMessage());
            }
        }
    }

    /** Stops this process' runs and releases their leases; their tasks stay unfinished. */
    void releaseAll() {
        List<String> stopped = new ArrayList<>(local.keySet());
        local.values().forEach(Stop::now);
        for (String key : stopped) {
            int sep = key.lastIndexOf('/');
            String dlq = key.substring(0, sep);
            String id = key.substring(sep + 1);
            try {
                store.release(dlq, id);
            } catch (RuntimeException e) {
                LOG.warnf("could not release redrive %s; another process takes it over after %s", id,
                        config.replay().redriveLease());
            }
        }
        local.clear();
    }

    /** True while a run of this process works on the task. */
    boolean runsHere(String dlq, String id) {
        return local.containsKey(key(dlq, id));
    }

    /** Runs the task here unless it already does. */
    void launch(String dlq, String id) {
        String key = key(dlq, id);
        local.computeIfAbsent(key, k -> {
            Stop stop = new Stop();
            executor.execute(() -> {
                try {
                    driver.drive(dlq, id, stop);
                    stuck.remove(key);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } catch (RuntimeException e) {
                    if (e instanceof DeadLetterException d && d.reason() == DeadLetterException.Reason.NOT_REPLICATED) {
                        // its WARN said so; the next run waits for the replicas again, not a stuck task
                        LOG.warnf("redrive %s of %s paused: %s; it resumes when its lease has run out", id, dlq, e.getMessage());
                        return;
                    }
                    if (stop.requested()) {
                        return; // stopped by releaseAll (shutdown): the lease is given up, another run resumes it
                    }
                    if (cannotProgress(e) && stuck.merge(key, 1, Integer::sum) >= MAX_STUCK_RUNS) {
                        abort(dlq, id, e);
                    } else {
                        LOG.errorf(e, "redrive %s of %s stopped; it resumes when its lease has run out", id, dlq);
                    }
                } finally {
                    // only this run's entry: after a release, a new run of the task may be here already
                    local.remove(key, stop);
                }
            });
            return stop;
        });
    }

    /** A refusal of the task's own keys (a key of another type), as opposed to Redis being unavailable. */
    static boolean cannotProgress(Throwable e) {
        String message = e.getMessage();
        return message != null && (message.contains("nothing moved: ") || message.startsWith("WRONGTYPE"));
    }

    private void abort(String dlq, String id, RuntimeException cause) {
        stuck.remove(key(dlq, id));
        String detail = "could not make progress after " + MAX_STUCK_RUNS + " tries: " + cause.getMessage();
        try {
            store.find(dlq, id).filter(t -> t.state().canMoveTo(RedriveState.ABORTED))
                    .ifPresent(t -> {
                        if (store.finish(t, RedriveState.ABORTED, detail)) {
                            LOG.errorf("redrive %s of %s aborted: %s; fix the key and start a new redrive", id, dlq, detail);
                        }
                    });
        } catch (RuntimeException e) {
            LOG.errorf(e, "redrive %s of %s could not be aborted (%s); it resumes when its lease has run out", id, dlq,
                    detail);
        }
    }

    private static String key(String dlq, String id) {
        return dlq + "/" + id;
    }
}
