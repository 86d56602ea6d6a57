package dev.redrive.redrive;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.redrive.deadletter.EntryFilter;

/**
 * A proposed bulk redrive as the API reports it (docs/API.md), and the one place its hash's fields
 * ({@code redis/RedisKeys#proposal}) are named: proposal-approve.lua and proposal-reject.lua write
 * the decision fields, lib/proposal.lua reads state, expires-at and proposed-by.
 *
 * @param matched         entries the filter selected when it was proposed
 * @param matchedComplete false when counting stopped at redrive.proposals.count-limit: matched is then a lower bound
 * @param until           the stream's newest entry id when it was proposed ("0-0": it was empty): the approved
 *                        redrive moves nothing parked after it, so an approver approves what was proposed
 * @param task            the redrive task the approval started, once approved
 * @param parkedSince     while it waits, the matching entries parked after it, which it does not include; else null
 * @param patch           what each moved entry will change ({@link RedrivePatch#view}; null: none)
 * @param preview         while it waits with a patch, the patch on its first entries, before and after; else null
 */
public record Proposal(String id, String dlq, String state, EntryFilter filter, int maxPerSecond, int canary,
        double maxRefailRate, String note, String proposedBy, Instant proposedAt, Instant expiresAt, long matched,
        boolean matchedComplete, String until, String decidedBy, Instant decidedAt, String decisionNote, String task,
        ParkedSince parkedSince, RedrivePatch patch, List<PatchPreview.Sample> preview) {

    /**
     * Entries the proposal's filter selects that were parked after it was made: not in it.
     *
     * @param complete false when counting stopped at redrive.proposals.count-limit: count is then a lower bound
     */
    public record ParkedSince(long count, boolean complete, String detail) {

        static ParkedSince of(long count, boolean complete) {
            return new ParkedSince(count, complete, count == 0 ? "no matching entry was parked since it was proposed"
                    : (complete ? "" : "at least ") + count + " matching entries were parked since it was proposed and "
                            + "are not in it; propose again to include them");
        }
    }

    /**
     * The proposer name of the proposals redrive makes itself (after an outage): exactly this name,
     * as stored. The console marks them, so an approver knows no person asked for it.
     */
    public static final String REDRIVE = "redrive";

    /** Whether redrive itself proposed it ({@link #REDRIVE}), not a person or an agent. */
    public boolean byRedrive() {
        return REDRIVE.equals(proposedBy);
    }

    /** The redrive the proposal asks for, exactly as it will run once approved. */
    public RedriveSpec spec() {
        return new RedriveSpec(filter, maxPerSecond, false, canary, maxRefailRate, note, patch);
    }

    public boolean open() {
        return ProposalState.PROPOSED.wire.equals(state);
    }

    /** A proposal not stored yet: its time and expiry are proposal-create.lua's, on Redis' clock ({@link #at}). */
    static Proposal made(String id, String dlq, RedriveSpec spec, String by, String until, long matched,
            boolean complete) {
        return new Proposal(id, dlq, ProposalState.PROPOSED.wire, spec.filter(), spec.maxPerSecond(), spec.canary(),
                spec.maxRefailRate(), spec.note() == null ? "" : spec.note(), by, null, null, matched, complete, until,
                null, null, null, null, null, spec.patch(), null);
    }

    /** This proposal as stored at {@code at} (Redis' clock), waiting for a decision until {@code expires}. */
    Proposal at(Instant at, Instant expires) {
        return new Proposal(id, dlq, state, filter, maxPerSecond, canary, maxRefailRate, note, proposedBy, at, expires,
                matched, matchedComplete, until, decidedBy, decidedAt, decisionNote, task, parkedSince, patch, preview);
    }

    Proposal with(ParkedSince since, List<PatchPreview.Sample> samples) {
        return new Proposal(id, dlq, state, filter, maxPerSecond, canary, maxRefailRate, note, proposedBy, proposedAt,
                expiresAt, matched, matchedComplete, until, decidedBy, decidedAt, decisionNote, task, since, patch,
                samples);
    }

    /**
     * The fields a new proposal's hash holds but its time and expiry (proposal-create.lua's);
     * filterJson is {@link #filter} as the task store writes it. proposer-key is the proposer's
     * name as {@link FourEyes} compares it, which the decision scripts compare with the decider's.
     */
    Map<String, String> toHash(String filterJson) {
        Map<String, String> hash = new LinkedHashMap<>();
        hash.put("id", id);
        hash.put("dlq", dlq);
        hash.put("state", state);
        hash.put("filter", filterJson);
        hash.put("max-per-second", Integer.toString(maxPerSecond));
        hash.put("canary", Integer.toString(canary));
        hash.put("max-refail-rate", Double.toString(maxRefailRate));
        hash.put("note", note);
        hash.put("proposed-by", proposedBy);
        hash.put("proposer-key", FourEyes.key(proposedBy));
        hash.put("matched", Long.toString(matched));
        hash.put("matched-complete", Boolean.toString(matchedComplete));
        hash.put("until", until);
        hash.put("patch", patch.stored());
        return hash;
    }

    /**
     * The proposal from its hash, as it stands at {@code now} (Redis' clock, as the decision scripts
     * read it): an undecided one past its expiry is expired. One made before until was kept covers
     * what was parked up to its time (stream ids are Redis' milliseconds too).
     */
    static Proposal fromHash(Map<String, String> hash, EntryFilter filter, Instant now) {
        Instant expires = millis(hash.get("expires-at"));
        String until = hash.getOrDefault("until", hash.get("proposed-at") + "-" + Long.toUnsignedString(-1L));
        ProposalState state = ProposalState.of(hash.get("state"));
        if (state == ProposalState.PROPOSED && !now.isBefore(expires)) {
            state = ProposalState.EXPIRED;
        }
        return new Proposal(hash.get("id"), hash.get("dlq"), state.wire, filter,
                Integer.parseInt(hash.get("max-per-second")), Integer.parseInt(hash.get("canary")),
                Double.parseDouble(hash.get("max-refail-rate")), hash.getOrDefault("note", ""), hash.get("proposed-by"),
                millis(hash.get("proposed-at")), expires, Long.parseLong(hash.get("matched")),
                Boolean.parseBoolean(hash.get("matched-complete")), until, hash.get("decided-by"),
                millis(hash.get("decided-at")), hash.get("decision-note"), hash.get("task"), null,
                RedrivePatch.fromStored(hash.get("patch")), null);
    }

    private static Instant millis(String value) {
        return value == null || value.isEmpty() ? null : Instant.ofEpochMilli(Long.parseLong(value));
    }
}
