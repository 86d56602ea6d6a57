package dev.redrive.redrive;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import dev.redrive.config.RedriveConfig;
import dev.redrive.deadletter.DeadLetterException;
import dev.redrive.deadletter.DeadLetterReader;
import dev.redrive.deadletter.EntryFilter;
import dev.redrive.deadletter.Page;
import dev.redrive.redis.LuaScripts;
import dev.redrive.job.EntryIds;
import dev.redrive.job.LogText;
import dev.redrive.redis.RedisKeys;
import dev.redrive.redis.RedisTime;
import dev.redrive.redis.ScriptReply;
import dev.redrive.redis.TaskHashes;
import io.smallrye.mutiny.Uni;

/**
 * Proposed bulk redrives, approved by a second person (four eyes): one person or agent proposes a
 * redrive, nothing moves, and another operator approves it, which starts the task exactly as
 * proposed, or rejects it. Each proposal is decided once, by a script that checks and writes in
 * one step (proposal-approve.lua, proposal-reject.lua), so two approvers at once start one task.
 * Every method blocks: the API and the MCP tools call them on worker threads.
 */
@ApplicationScoped
public class Proposals {

    private static final Logger LOG = Logger.getLogger(Proposals.class);

    /** What a filter selects now, counted through at most redrive.proposals.count-limit entries. */
    public record Matches(long matched, boolean complete) {
    }

    /** How many proposals of a stream wait for a decision: {@code count}, or more than it when {@code more}. */
    public record Waiting(int count, boolean more) {
    }

    /**
     * The most waiting proposals of one stream that are counted ({@link #waiting}) or read
     * ({@link #waitingProposals}) for one page, so a page costs the same however many wait.
     */
    public static final int WAITING_LIMIT = 50;
    /** Longest note of a redrive, a proposal or a decision on one, in characters (API and console alike). */
    public static final int MAX_NOTE = 2000;

    /** A page of a stream's proposals, newest first; {@code next} is the cursor of the next page, or null. */
    public record ProposalPage(List<Proposal> items, String next) {
    }

    @Inject
    RedriveTaskStore store;

    @Inject
    RedriveRunner runner;

    @Inject
    TaskHashes hashes;

    @Inject
    LuaScripts scripts;

    @Inject
    DeadLetterReader deadLetters;

    @Inject
    RedisWait wait;

    @Inject
    RedriveConfig config;

    @Inject
    RedisTime time;

    @Inject
    PatchPreview preview;

    @Inject
    ProposalWrites writes;

    /**
     * Stores a proposal of {@code spec} (never a dry run) with what it matches now; moves nothing.
     * Its scope is frozen: it covers what was parked until now (the stream's newest id, kept as its
     * until), so its approval moves what its approver saw proposed and nothing parked later.
     */
    public Proposal propose(String dlq, RedriveSpec spec, String actor) {
        deadLetters.requireKnown(dlq);
        if (spec.dryRun()) {
            throw new IllegalArgumentException("a dry run moves nothing: it needs no approval");
        }
        String until = writes.until(dlq);
        Matches matches = count(dlq, spec.filter(), null, until);
        Proposal draft = Proposal.made(UUID.randomUUID().toString(), dlq, spec, actor, until, matches.matched(),
                matches.complete());
        ScriptReply created = writes.create(draft);
        refuseUnless(ScriptReply.Code.CREATED, created, dlq, draft.id(), "propose");
        Proposal proposal = writes.stored(draft, created);
        LOG.infof("%s proposed redrive %s of %s (%d matched now, %d/s, canary %d); another operator approves it with "
                + "POST /dlq/.../proposals/%s/approve", LogText.of(actor), proposal.id(), dlq, matches.matched(),
                spec.maxPerSecond(), spec.canary(), proposal.id());
        return proposal;
    }

    /**
     * Counts what {@code filter} selects in the stream now, oldest first, a scan-limit page at a
     * time, and stops after redrive.proposals.count-limit entries examined (a lower bound then).
     */
    public Matches count(String dlq, EntryFilter filter) {
        deadLetters.requireKnown(dlq);
        return count(dlq, filter, null, null);
    }

    /** Like {@link #count(String, EntryFilter)}, of the entries after {@code after} (null: from the oldest) up to {@code until} (null: the newest). */
    private Matches count(String dlq, EntryFilter filter, String after, String until) {
        long matched = 0;
        long examined = 0;
        int limit = config.proposals().countLimit();
        do {
            Page<String> page = wait.on(deadLetters.matchPage(dlq, filter, after));
            for (String id : page.items()) {
                if (until != null && EntryIds.compare(id, until) > 0) {
                    return new Matches(matched, true);
                }
                matched++;
            }
            examined += Math.max(1, page.examined());
            after = page.next();
            if (until != null && after != null && EntryIds.compare(after, until) >= 0) {
                return new Matches(matched, true);
            }
        } while (after != null && examined < limit);
        return new Matches(matched, after == null);
    }

    /**
     * The proposal; while it waits, with the matching entries parked since it was made, which it
     * does not include ({@link Proposal.ParkedSince}).
     */
    public Proposal get(String dlq, String id) {
        Proposal proposal = stored(dlq, id);
        if (!proposal.open()) {
            return proposal;
        }
        Matches since = count(dlq, proposal.filter(), proposal.until(), null);
        return proposal.with(Proposal.ParkedSince.of(since.matched(), since.complete()),
                preview.of(dlq, proposal.filter(), proposal.until(), proposal.patch()));
    }

    /** The proposal as stored, without counting what was parked since (a decision needs only its fields), or 404. */
    private Proposal stored(String dlq, String id) {
        deadLetters.requireKnown(dlq);
        return find(dlq, id).orElseThrow(() -> new DeadLetterException(DeadLetterException.Reason.NO_PROPOSAL,
                "no proposal " + id + " of " + dlq + " (one is kept for " + config.replay().redriveRetention()
                        + " after it expires)"));
    }

    /** Up to {@code count} proposals of the stream, newest first, from cursor {@code after} (null: the newest). */
    public ProposalPage list(String dlq, int count, String after) {
        deadLetters.requireKnown(dlq);
        long offset = after == null ? 0 : Long.parseLong(after);
        List<String> ids = wait.on(hashes.proposalIds(dlq, offset, count + 1));
        List<Proposal> items = new ArrayList<>();
        for (String id : ids.subList(0, Math.min(count, ids.size()))) {
            find(dlq, id).ifPresent(items::add);
        }
        return new ProposalPage(items, ids.size() > count ? Long.toString(offset + count) : null);
    }

    /**
     * How many of the stream's proposals wait for a decision now (proposed, unexpired), counted up
     * to {@link #WAITING_LIMIT}: Redis' time, then one range read of the waiting set. Does not block.
     */
    public Uni<Waiting> waiting(String dlq) {
        return time.now().flatMap(now -> waiting(dlq, now));
    }

    /** Like {@link #waiting(String)} at {@code now} (Redis' time, read once for many streams). */
    Uni<Waiting> waiting(String dlq, Instant now) {
        return hashes.waitingProposalIds(dlq, now.toEpochMilli(), WAITING_LIMIT + 1)
                .map(ids -> new Waiting(Math.min(ids.size(), WAITING_LIMIT), ids.size() > WAITING_LIMIT));
    }

    /**
     * The stream's proposals that wait for a decision now, soonest to expire first, at most
     * {@link #WAITING_LIMIT}: the range read and one read of each. Does not block.
     */
    public Uni<List<Proposal>> waitingProposals(String dlq) {
        return time.now().flatMap(now -> waitingAt(dlq, now));
    }

    private Uni<List<Proposal>> waitingAt(String dlq, Instant now) {
        return hashes.waitingProposalIds(dlq, now.toEpochMilli(), WAITING_LIMIT).flatMap(ids -> {
            if (ids.isEmpty()) {
                return Uni.createFrom().item(List.<Proposal>of());
            }
            List<Uni<Map<String, String>>> reads = ids.stream().map(id -> hashes.proposal(dlq, id)).toList();
            return Uni.join().all(reads).andFailFast().map(found -> found.stream()
                    .filter(hash -> hash != null && !hash.isEmpty())
                    .map(hash -> Proposal.fromHash(hash, store.filter(hash.get("filter"), "proposal " + hash.get("id")), now))
                    .filter(Proposal::open).toList());
        });
    }

    /**
     * Approves the proposal and starts its redrive exactly as proposed: its filter, pace and canary,
     * and only what was parked until it was proposed (its until). The proposal with its task. The
     * script decides, on Redis' clock, and writes both audit records (proposal-approve, and the
     * redrive it starts): of two approvers at once, one starts the task.
     */
    public Proposal approve(String dlq, String id, String actor, String note) {
        Proposal proposal = stored(dlq, id);
        String taskId = UUID.randomUUID().toString();
        String taskNote = "proposal " + id + " by " + proposal.proposedBy()
                + (proposal.note().isEmpty() ? "" : ": " + proposal.note());
        RedriveSpec spec = new RedriveSpec(proposal.filter(), proposal.maxPerSecond(), false, proposal.canary(),
                proposal.maxRefailRate(), taskNote, proposal.patch());
        RedriveTask task = RedriveTask.begun(taskId, dlq, store.json(proposal.filter()), spec, proposal.until(), actor,
                store.now());
        ScriptReply reply = store.createApproved(task, RedisKeys.proposal(dlq, id), actor, FourEyes.key(actor), note(note));
        refuseUnless(ScriptReply.Code.APPROVED, reply, dlq, id, "approve");
        LOG.infof("%s approved proposal %s of %s by %s: redrive %s started", LogText.of(actor), id, dlq,
                LogText.of(proposal.proposedBy()), taskId);
        runner.launch(dlq, taskId);
        return get(dlq, id);
    }

    /** Rejects the proposal: nothing moves, and it can be approved no more. */
    public Proposal reject(String dlq, String id, String actor, String note) {
        stored(dlq, id);
        ScriptReply reply = wait.on(scripts.call(LuaScripts.Script.PROPOSAL_REJECT,
                List.of(RedisKeys.proposal(dlq, id), RedisKeys.waitingProposals(dlq), RedisKeys.audit(dlq)),
                List.of(actor, FourEyes.key(actor), note(note))));
        refuseUnless(ScriptReply.Code.REJECTED, reply, dlq, id, "reject");
        LOG.infof("%s rejected proposal %s of %s", LogText.of(actor), id, dlq);
        return get(dlq, id);
    }

    private Optional<Proposal> find(String dlq, String id) {
        Map<String, String> hash = wait.on(hashes.proposal(dlq, id));
        if (hash == null || hash.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(Proposal.fromHash(hash, store.filter(hash.get("filter"), "proposal " + id), wait.on(time.now())));
    }

    private static void refuseUnless(ScriptReply.Code done, ScriptReply reply, String dlq, String id, String act) {
        if (reply.code() == done) {
            return;
        }
        throw switch (reply.code()) {
            case GONE -> new DeadLetterException(DeadLetterException.Reason.NO_PROPOSAL, "no proposal " + id + " of " + dlq);
            case DECIDED -> new DeadLetterException(DeadLetterException.Reason.PROPOSAL_DECIDED,
                    "proposal " + id + " is already " + reply.text(1) + "; a proposal is decided once");
            case EXPIRED -> new DeadLetterException(DeadLetterException.Reason.PROPOSAL_DECIDED,
                    "proposal " + id + " expired undecided; propose the redrive again");
            case OWN -> new DeadLetterException(DeadLetterException.Reason.OWN_PROPOSAL,
                    "you proposed " + id + "; another dlq-operator must " + act + " it (four eyes)");
            case WRONG_TYPE -> new DeadLetterException(DeadLetterException.Reason.WRONG_TYPE,
                    "could not " + act + " " + id + " of " + dlq + ": " + reply.text(1) + " (nothing changed)");
            default -> new IllegalStateException("proposal " + id + ": unexpected " + reply.code());
        };
    }

    /**
     * A decision's note as the audit trail keeps it, whether the API or the console sends it: without
     * the white space around it (like deadletter/Replays.note); none, or only white space, is no note
     * (""); at most {@value #MAX_NOTE} characters.
     */
    public static String note(String note) {
        String kept = note == null ? "" : note.strip();
        if (kept.length() > MAX_NOTE) {
            throw new DeadLetterException(DeadLetterException.Reason.BAD_REASON,
                    "note is limited to " + MAX_NOTE + " characters");
        }
        return kept;
    }
}
