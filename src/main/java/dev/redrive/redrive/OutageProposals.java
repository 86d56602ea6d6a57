package dev.redrive.redrive;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.RejectedExecutionException;
import java.util.stream.Collectors;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import org.eclipse.microprofile.context.ManagedExecutor;
import org.eclipse.microprofile.context.ThreadContext;
import org.jboss.logging.Logger;

import dev.redrive.config.QueueSpec;
import dev.redrive.deadletter.DeadLetterReader;
import dev.redrive.deadletter.Outage;
import dev.redrive.deadletter.Page;
import dev.redrive.job.EntryIds;
import dev.redrive.redis.RedisKeys;
import dev.redrive.redis.RedisTime;
import dev.redrive.redis.ScriptReply;
import dev.redrive.time.Timers;
import io.smallrye.context.api.ManagedExecutorConfig;

/**
 * When a queue's circuit closes after an outage, proposes to redrive exactly the jobs the outage
 * exhausted (README, "After an outage"): a proposal by {@link Proposal#REDRIVE}, which waits for
 * an operator's approval like any other (four eyes; require-approval or not, nothing starts by
 * itself), holding the ids of the queue's {@code exhausted} dead letters parked from the outage's
 * first failure until it was over (its circuit closed and a call succeeded since): a frozen set,
 * never its terminal failures (a redrive can't help those) nor anything parked later. One
 * proposal per outage however many replicas saw it end: outage-propose.lua checks and stores in
 * one step (ProposalWrites#createOnce).
 * <p>
 * The worker reports the outage on the thread its breaker called back on; the proposal is made on
 * a thread of Quarkus' managed executor, so a slow or absent Redis never holds a queue. A failure
 * is tried again a few times, then left with a line that says how to propose it by hand.
 */
@ApplicationScoped
public class OutageProposals {

    private static final Logger LOG = Logger.getLogger(OutageProposals.class);

    /**
     * Most jobs one proposal holds: their ids are its filter, which every step of its redrive
     * carries (about 20 bytes each). An outage that parked more proposes its first ones and says so.
     */
    static final int MAX_IDS = 10_000;
    /** Jobs the redrive sends first and waits for, before the rest (all of them when fewer). */
    static final int CANARY = 10;
    /** Tries at most when Redis fails; the first wait between two, doubled after each. */
    static final int TRIES = 4;
    static final Duration FIRST_WAIT = Duration.ofSeconds(2);

    /** The outage on Redis' clock, epoch ms: its first failure and when it was over. */
    record Window(long first, long ended) {
    }

    /** Quarkus builds and shuts it down; a proposal takes no context of the worker that reported it. */
    @Inject
    @ManagedExecutorConfig(propagated = {}, cleared = ThreadContext.ALL_REMAINING)
    ManagedExecutor executor;

    @Inject
    ProposalWrites writes;

    @Inject
    DeadLetterReader deadLetters;

    @Inject
    RedisTime redisTime;

    @Inject
    RedisWait wait;

    @Inject
    Timers time;

    void onOutage(@Observes Outage outage) {
        QueueSpec queue = outage.queue();
        if (!queue.proposeAfterOutage()) {
            LOG.infof("queue %s: its outage ended; redrive.queues.%s.propose-after-outage is false, so no redrive of "
                    + "what it parked is proposed (list them: GET /dlq/.../entries?origin=%s&failure=exhausted)",
                    queue.name(), queue.name(), queue.stream());
            return;
        }
        submit(outage, 1);
    }

    private void submit(Outage outage, int attempt) {
        try {
            executor.execute(() -> attempt(outage, attempt));
        } catch (RejectedExecutionException shuttingDown) {
            LOG.warnf("queue %s: the redrive of what its outage parked is not proposed: this process is stopping",
                    outage.queue().name());
        }
    }

    private void attempt(Outage outage, int attempt) {
        try {
            propose(outage);
        } catch (RuntimeException e) {
            String queue = outage.queue().name();
            if (attempt >= TRIES) {
                LOG.errorf("queue %s: could not propose the redrive of what its outage parked after %d tries (%s); "
                        + "nothing is proposed: propose it by hand (POST /dlq/%s/proposals with filter origin %s, "
                        + "failure exhausted, deadFrom and deadTo around the outage)", queue, TRIES, e.getMessage(),
                        outage.queue().deadLetters(), outage.queue().stream());
                return;
            }
            Duration next = FIRST_WAIT.multipliedBy(1L << (attempt - 1));
            LOG.warnf("queue %s: could not propose the redrive of what its outage parked (%s); trying again in %s "
                    + "(try %d of %d)", queue, e.getMessage(), next, attempt, TRIES);
            time.after(next, () -> submit(outage, attempt + 1));
        }
    }

    /** Proposes the redrive of what the outage exhausted, unless it parked none or its proposal was made. Blocks. */
    private void propose(Outage outage) {
        QueueSpec queue = outage.queue();
        String dlq = queue.deadLetters();
        Window window = window(outage);
        List<String> ids = exhausted(outage, window, MAX_IDS + 1);
        String seen = "from its first failure at " + Instant.ofEpochMilli(window.first()) + " until it was over at "
                + Instant.ofEpochMilli(window.ended()) + " (Redis' clock)";
        if (ids.isEmpty()) {
            // Nothing is recorded either: another replica whose outage overlaps this one may have
            // seen a job exhausted outside this replica's window, and still proposes it.
            LOG.infof("queue %s: its outage %s parked no job exhausted: no redrive to propose", queue.name(), seen);
            return;
        }
        boolean more = ids.size() > MAX_IDS;
        List<String> held = more ? ids.subList(0, MAX_IDS) : ids;
        int canary = Math.min(CANARY, held.size());
        RedriveSpec spec = new RedriveSpec(outage.exhausted(held), RedriveSpec.DEFAULT_MAX_PER_SECOND, false, canary,
                RedriveSpec.DEFAULT_MAX_REFAIL_RATE, note(outage, seen, held, more), RedrivePatch.NONE);
        Proposal draft = Proposal.made(UUID.randomUUID().toString(), dlq, spec, Proposal.REDRIVE, writes.until(dlq),
                held.size(), true);
        ScriptReply reply = writes.createOnce(draft, RedisKeys.proposedOutages(dlq, queue.name()), window.first(),
                window.ended());
        switch (reply.code()) {
            case CREATED -> {
                Proposal proposal = writes.stored(draft, reply);
                LOG.infof("queue %s: its outage %s exhausted %d job(s)%s; redrive proposed their redrive as proposal %s "
                        + "of %s (canary %d first, %d/s): an operator approves it with POST /dlq/.../proposals/%s/approve "
                        + "or rejects it", queue.name(), seen, held.size(), more ? " or more" : "", proposal.id(), dlq,
                        canary, spec.maxPerSecond(), proposal.id());
            }
            case PROPOSED_BEFORE -> LOG.infof("queue %s: its outage %s is one whose redrive was proposed already "
                    + "(proposal %s of %s, by the replica that saw it end first): not proposed again", queue.name(),
                    seen, reply.text(1), dlq);
            default -> LOG.errorf("queue %s: the redrive of what its outage %s parked can't be proposed: %s (nothing "
                    + "written; move that key away)", queue.name(), seen, reply.text(1));
        }
    }

    /**
     * The outage on Redis' clock: its TIME less the time elapsed since each moment on this process's
     * monotonic clock, read around the TIME call (its middle is when Redis read its clock, as near
     * as this process can tell). Never this process's wall clock, which may be off Redis' by hours,
     * while the dead letters' ids are Redis' milliseconds. The first failure is rounded down and the
     * end up (TIME is cut to the millisecond), so a job parked in the same millisecond as either is in.
     */
    private Window window(Outage outage) {
        long before = time.elapsedNanos();
        long redisNow = wait.on(redisTime.now()).toEpochMilli();
        long at = before + (time.elapsedNanos() - before) / 2;
        long sinceFirst = -Math.floorDiv(outage.firstFailureNanos() - at, 1_000_000L);
        long sinceEnded = Math.floorDiv(at - outage.endedNanos(), 1_000_000L);
        return new Window(redisNow - sinceFirst, redisNow - sinceEnded);
    }

    /**
     * The ids of the queue's exhausted dead letters parked within the window, oldest first, at most
     * {@code max}: read a page of the stream at a time (the listing's filter, lib/filter.lua), from
     * the window's first millisecond on, until past its last.
     */
    private List<String> exhausted(Outage outage, Window window, int max) {
        String dlq = outage.queue().deadLetters();
        String last = window.ended() + "-" + Long.toUnsignedString(-1L);
        String after = (window.first() - 1) + "-" + Long.toUnsignedString(-1L);
        List<String> ids = new ArrayList<>();
        while (after != null) {
            Page<String> page = wait.on(deadLetters.matchPage(dlq, outage.exhausted(null), after));
            for (String id : page.items()) {
                if (EntryIds.compare(id, last) > 0 || ids.size() == max) {
                    return ids;
                }
                ids.add(id);
            }
            after = page.next();
            if (after != null && EntryIds.compare(after, last) >= 0) {
                break;
            }
        }
        return ids;
    }

    /** What the approver reads: the outage, what it failed with, what the redrive holds and how it runs. */
    private static String note(Outage outage, String seen, List<String> held, boolean more) {
        String failures = outage.errorTypes().entrySet().stream().map(e -> e.getKey() + " ×" + e.getValue())
                .collect(Collectors.joining(", "));
        String note = "Outage of queue " + outage.queue().name() + " " + seen + "; transient failures: "
                + (failures.isEmpty() ? "none seen by the replica that proposes" : failures) + ". Redrives the "
                + held.size() + " job(s) of " + outage.queue().stream() + " it parked exhausted"
                + (more ? " (the first " + MAX_IDS + "; more were parked after entry " + held.get(held.size() - 1)
                        + ": redrive them once this is done)" : "")
                + ", canary first; no terminal failure, nothing parked after. Approve once the provider is healthy.";
        return note.length() <= Proposals.MAX_NOTE ? note : note.substring(0, Proposals.MAX_NOTE - 1) + "…";
    }
}
