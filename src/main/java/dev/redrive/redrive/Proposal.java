package dev.redrive.redrive;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.redrive.deadletter.EntryFilter;

/**
 * A proposed bulk redrive as the API reports it (docs/API.md), and the one place its hash's fields
 * ({@code redis/RedisKeys#proposal}) are named: proposal-approve.lua and proposal-reject.lua write
 * the decision fields, lib/proposal.lua reads state, expires-at and proposed-by.
 *
 * @param matched         entries the filter selected when it was proposed
 * @param matchedComplete false when counting stopped at redrive.proposals.count-limit: matched is then a lower bound
 * @param task            the redrive task the approval started, once approved
 */
public record Proposal(String id, String dlq, String state, EntryFilter filter, int maxPerSecond, int canary,
        double maxRefailRate, String note, String proposedBy, Instant proposedAt, Instant expiresAt, long matched,
        boolean matchedComplete, String decidedBy, Instant decidedAt, String decisionNote, String task) {

    /** The redrive the proposal asks for, exactly as it will run once approved. */
    public RedriveSpec spec() {
        return new RedriveSpec(filter, maxPerSecond, false, canary, maxRefailRate, note);
    }

    public boolean open() {
        return ProposalState.PROPOSED.wire.equals(state);
    }

    static Proposal made(String id, String dlq, RedriveSpec spec, String by, Instant at, Instant expires,
            long matched, boolean complete) {
        return new Proposal(id, dlq, ProposalState.PROPOSED.wire, spec.filter(), spec.maxPerSecond(), spec.canary(),
                spec.maxRefailRate(), spec.note() == null ? "" : spec.note(), by, at, expires, matched, complete, null,
                null, null, null);
    }

    /** The fields a new proposal's hash holds; filterJson is {@link #filter} as the task store writes it. */
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
        hash.put("proposed-at", Long.toString(proposedAt.toEpochMilli()));
        hash.put("expires-at", Long.toString(expiresAt.toEpochMilli()));
        hash.put("matched", Long.toString(matched));
        hash.put("matched-complete", Boolean.toString(matchedComplete));
        return hash;
    }

    /** The proposal from its hash, as it stands at {@code now}: an undecided one past its expiry is expired. */
    static Proposal fromHash(Map<String, String> hash, EntryFilter filter, Instant now) {
        Instant expires = millis(hash.get("expires-at"));
        ProposalState state = ProposalState.of(hash.get("state"));
        if (state == ProposalState.PROPOSED && !now.isBefore(expires)) {
            state = ProposalState.EXPIRED;
        }
        return new Proposal(hash.get("id"), hash.get("dlq"), state.wire, filter,
                Integer.parseInt(hash.get("max-per-second")), Integer.parseInt(hash.get("canary")),
                Double.parseDouble(hash.get("max-refail-rate")), hash.getOrDefault("note", ""), hash.get("proposed-by"),
                millis(hash.get("proposed-at")), expires, Long.parseLong(hash.get("matched")),
                Boolean.parseBoolean(hash.get("matched-complete")), hash.get("decided-by"),
                millis(hash.get("decided-at")), hash.get("decision-note"), hash.get("task"));
    }

    private static Instant millis(String value) {
        return value == null || value.isEmpty() ? null : Instant.ofEpochMilli(Long.parseLong(value));
    }
}
