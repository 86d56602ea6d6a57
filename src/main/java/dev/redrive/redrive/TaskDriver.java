package dev.redrive.redrive;

import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import dev.redrive.config.ProcessIdentity;
import dev.redrive.time.Timers;

/**
 * Drives one task through its states from wherever it stands (a new task, or one taken over from a
 * runner that stopped): counting, then the canary if it has one, then the rest; a dry run ends
 * after counting. Each phase goes on only while this runner holds the task's {@link Lease}, so a
 * cancel, a takeover or a stop ends it within a step.
 */
@ApplicationScoped
class TaskDriver {

    private static final Logger LOG = Logger.getLogger(TaskDriver.class);

    @Inject
    RedriveTaskStore store;

    @Inject
    TaskSteps steps;

    @Inject
    Canary canary;

    @Inject
    ProcessIdentity identity;

    @Inject
    Timers time;

    void drive(String dlq, String id, Stop stop) throws InterruptedException {
        if (!store.claim(dlq, id, identity.runner())) {
            return;
        }
        Optional<RedriveTask> found = store.find(dlq, id);
        if (found.isEmpty()) {
            return;
        }
        RedriveTask task = found.get();
        RedriveSpec spec = store.spec(task);
        Lease lease = new Lease(store, time, task, identity.runner(), stop);
        if (task.state() == RedriveState.COUNTING) {
            if (!steps.count(task, spec, lease)) {
                return;
            }
            if (spec.dryRun()) {
                long matched = store.get(dlq, id).matched();
                store.finish(task, RedriveState.COMPLETED, "dry run: " + matched + " entries would move");
                return;
            }
            task = advance(task, spec.canary() > 0 ? RedriveState.CANARY : RedriveState.RUNNING);
            if (task == null) {
                return;
            }
        }
        if (task.state() == RedriveState.CANARY) {
            if (!steps.move(task, spec, lease, stop) || !canary.passed(task, lease, stop)) {
                return;
            }
            task = advance(task, RedriveState.RUNNING);
            if (task == null) {
                return;
            }
        }
        if (task.state() == RedriveState.RUNNING && steps.move(task, spec, lease, stop)
                && store.finish(task, RedriveState.COMPLETED, "")) {
            RedriveTask done = store.get(dlq, id);
            LOG.infof("redrive %s of %s completed: %d moved, %d skipped (origin not writable, no snapshot, or a patch "
                    + "that did not apply: see its skipReason and skippedEntries)", id, dlq, done.moved(), done.skipped());
        }
    }

    /** The task in its next state, or null when it left the one it was in meanwhile (cancelled): the run ends. */
    private RedriveTask advance(RedriveTask task, RedriveState to) {
        return store.advance(task, to) ? task.in(to) : null;
    }
}
