package dev.redrive.redrive;

import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import dev.redrive.config.RedriveConfig;
import dev.redrive.deadletter.DeadLetterException;
import dev.redrive.deadletter.DeadLetterReader;
import dev.redrive.job.LogText;

/**
 * Bulk replays ("redrives") as an operator sees them: start one (a filter, a pace, an optional
 * canary), follow it, cancel it. A task's whole state lives in a hash in the dead-letter stream's
 * slot ({@link RedriveTask}), so any process can report it, cancel it or take it over; this
 * process' {@link RedriveRunner} runs the ones it starts. Every method blocks: the API calls them
 * on worker threads.
 *
 * <p>The one owner of redrive.redrives.require-approval: every door (REST, the console's forms,
 * MCP) starts a redrive through {@link #request} or {@link #start}, and {@link #start} refuses a
 * redrive that moves entries while approval is required, so a door that forgets to ask can only
 * fail, never walk around the second person. An approved proposal starts its task through
 * {@link Proposals#approve}, the one way past the rule.
 */
@ApplicationScoped
public class RedriveTasks {

    private static final Logger LOG = Logger.getLogger(RedriveTasks.class);

    /** More than the moves a runner can make (counting, canary, running, an end): a cancel never loses them all. */
    private static final int CANCEL_ATTEMPTS = 5;

    @Inject
    RedriveTaskStore store;

    @Inject
    RedriveRunner runner;

    @Inject
    DeadLetterReader deadLetters;

    @Inject
    RedisWait wait;

    @Inject
    Proposals proposals;

    @Inject
    RedriveConfig config;

    @Inject
    PatchPreview preview;

    /** What asking for a redrive did: started it, or (approval required) proposed it to another operator. */
    public sealed interface Requested {
    }

    public record Started(RedriveStatus task) implements Requested {
    }

    public record Proposed(Proposal proposal) implements Requested {
    }

    /**
     * An operator's request for a redrive: started at once, or, when redrive.redrives.require-approval
     * is on and it would move entries (not a dry run), proposed instead, for another operator to approve.
     */
    public Requested request(String dlq, RedriveSpec spec, String actor) {
        if (approvalRequired(spec)) {
            return new Proposed(proposals.propose(dlq, spec, actor));
        }
        return new Started(start(dlq, spec, actor));
    }

    private boolean approvalRequired(RedriveSpec spec) {
        return config.redrives().requireApproval() && !spec.dryRun();
    }

    /**
     * Starts a redrive of what {@code spec} selects among the entries parked so far (jobs that come
     * back during the task are not moved again by it); 409 while another one of the stream is
     * unfinished; 403 (approval-required) when the redrive would move entries and
     * redrive.redrives.require-approval is on: it must be proposed ({@link #request}).
     */
    public RedriveStatus start(String dlq, RedriveSpec spec, String actor) {
        deadLetters.requireKnown(dlq);
        if (approvalRequired(spec)) {
            throw new DeadLetterException(DeadLetterException.Reason.APPROVAL_REQUIRED, "every bulk redrive needs a "
                    + "second person's approval (redrive.redrives.require-approval): propose it (POST /dlq/.../proposals, "
                    + "the console's forms or MCP propose_redrive), and another dlq-operator approves it");
        }
        String id = UUID.randomUUID().toString();
        String until = wait.on(deadLetters.newestId(dlq));
        store.create(RedriveTask.begun(id, dlq, store.json(spec.filter()), spec, until, actor, store.now()));
        LOG.infof("%s started redrive %s of %s (dry run %s, %d/s, canary %d, patched fields %s)", LogText.of(actor), id,
                dlq, spec.dryRun(), spec.maxPerSecond(), spec.canary(), LogText.of(String.join(",", spec.patch().names())));
        runner.launch(dlq, id);
        return status(dlq, id);
    }

    /**
     * The redrive a dry run counted, to start for real: its filter, pace, canary, refail rate, note
     * and patch; 409 (not-a-dry-run) when the task is a redrive itself.
     */
    public RedriveSpec confirmed(String dlq, String id) {
        deadLetters.requireKnown(dlq);
        RedriveTask task = store.get(dlq, id);
        if (!task.dryRun()) {
            throw new DeadLetterException(DeadLetterException.Reason.NOT_A_DRY_RUN, "redrive " + id + " is not a dry run: "
                    + "only a dry run's redrive is started from it");
        }
        RedriveSpec counted = store.spec(task);
        return new RedriveSpec(counted.filter(), counted.maxPerSecond(), false, counted.canary(), counted.maxRefailRate(),
                counted.note(), counted.patch());
    }

    /** The task as the API reports it; a dry run with a patch with its preview, as the entries stand now. */
    public RedriveStatus status(String dlq, String id) {
        deadLetters.requireKnown(dlq);
        RedriveTask task = store.get(dlq, id);
        RedriveSpec spec = store.spec(task);
        return RedriveStatus.of(task, task.dryRun() ? preview.of(dlq, spec.filter(), task.until(), spec.patch()) : null);
    }

    /**
     * Stops a task wherever it runs: its runner's next lease renewal fails. The cancel is a move of
     * the task's state machine like the runner's own: when the runner moved the task between the
     * read and the cancel, the task is read again (a runner moves it a few times at most).
     */
    public RedriveStatus cancel(String dlq, String id, String actor) {
        deadLetters.requireKnown(dlq);
        for (int attempt = 0; attempt < CANCEL_ATTEMPTS; attempt++) {
            RedriveTask task = store.get(dlq, id);
            if (task.state().finished()) {
                throw new DeadLetterException(DeadLetterException.Reason.TASK_FINISHED,
                        "redrive " + id + " is already " + task.state().wire);
            }
            if (store.finish(task, RedriveState.CANCELLED, "cancelled by " + actor)) {
                store.audit(dlq, id, "redrive-cancel", actor, "");
                return status(dlq, id);
            }
        }
        throw new IllegalStateException("could not cancel redrive " + id + " of " + dlq + ": its state kept changing");
    }
}
