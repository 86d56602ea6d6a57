package dev.redrive.redrive;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.redrive.config.RedriveConfig;
import dev.redrive.deadletter.DeadLetterReader;
import dev.redrive.redis.LuaScripts;
import dev.redrive.redis.RedisKeys;
import dev.redrive.redis.ScriptReply;

/**
 * Stores new proposals: a person's or an agent's ({@link Proposals#propose}, proposal-create.lua)
 * and redrive's own after an outage ({@link OutageProposals}, outage-propose.lua), which both store
 * through lib/new-proposal.lua. The one place a new proposal's KEYS and ARGV are built and its
 * stored time is read from the script's answer. Every method blocks ({@link RedisWait}).
 */
@ApplicationScoped
class ProposalWrites {

    @Inject
    LuaScripts scripts;

    @Inject
    RedisWait wait;

    @Inject
    RedriveConfig config;

    @Inject
    RedriveTaskStore store;

    @Inject
    DeadLetterReader deadLetters;

    /**
     * The stream's newest entry id now ("0-0": it is empty): what a proposal made now covers, so its
     * approval moves nothing parked after it.
     */
    String until(String dlq) {
        String newest = wait.on(deadLetters.newestId(dlq));
        return newest == null ? "0-0" : newest;
    }

    /** Stores {@code draft} (proposal-create.lua): CREATED, or WRONG_TYPE with nothing written. */
    ScriptReply create(Proposal draft) {
        return wait.on(scripts.call(LuaScripts.Script.PROPOSAL_CREATE, keys(draft), args(draft, List.of())));
    }

    /**
     * Stores {@code draft} (outage-propose.lua) unless an outage recorded in {@code outages} that
     * overlaps this one, from {@code first} to {@code ended} (epoch ms, Redis' clock), has its
     * proposal: CREATED, PROPOSED_BEFORE (nothing written), or WRONG_TYPE (nothing written). An
     * outage is remembered as long as a proposal waits for its decision.
     */
    ScriptReply createOnce(Proposal draft, String outages, long first, long ended) {
        List<String> keys = new ArrayList<>(keys(draft));
        keys.add(outages);
        List<String> own = List.of(Long.toString(first), Long.toString(ended),
                Long.toString(config.proposals().ttl().toMillis()));
        return wait.on(scripts.call(LuaScripts.Script.OUTAGE_PROPOSE, keys, args(draft, own)));
    }

    /** {@code draft} as a script stored it ({@link ScriptReply.Code#CREATED}): its time, Redis', and expiry. */
    Proposal stored(Proposal draft, ScriptReply created) {
        Instant at = Instant.ofEpochMilli(Long.parseLong(created.text(1)));
        return draft.at(at, at.plus(config.proposals().ttl()));
    }

    private static List<String> keys(Proposal draft) {
        String dlq = draft.dlq();
        return List.of(RedisKeys.proposal(dlq, draft.id()), RedisKeys.proposals(dlq), RedisKeys.waitingProposals(dlq),
                RedisKeys.audit(dlq));
    }

    /** The id, how long it waits, how long it is kept, the script's {@code own} arguments, then its fields. */
    private List<String> args(Proposal draft, List<String> own) {
        long keep = config.proposals().ttl().plus(config.replay().redriveRetention()).toMillis();
        List<String> args = new ArrayList<>(List.of(draft.id(), Long.toString(config.proposals().ttl().toMillis()),
                Long.toString(keep)));
        args.addAll(own);
        draft.toHash(store.json(draft.filter())).forEach((name, value) -> {
            args.add(name);
            args.add(value);
        });
        return args;
    }
}
