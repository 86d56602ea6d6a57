package dev.redrive.redis;

/**
 * The one place that names redrive's keys. Every key that a script touches together with a
 * stream carries that stream's hash tag, so the script stays legal on Redis Cluster: stream
 * {@code orders} has its dead letters in {@code {orders}:dlq}, and a stream that already carries
 * a tag ({@code {shop}orders}) keeps it ({@code {shop}orders:dlq}).
 */
public final class RedisKeys {

    private RedisKeys() {
    }

    /** The prefix that pins derived keys to the key's hash slot. */
    static String slotPrefix(String key) {
        return HashSlot.hasTag(key) ? key : "{" + key + "}";
    }

    /** Default dead-letter stream of an origin stream. */
    public static String defaultDeadLetters(String stream) {
        return slotPrefix(stream) + ":dlq";
    }

    /** Hash of entry id to the earliest time (epoch ms) its next attempt may start, from Retry-After. */
    public static String notBefore(String stream) {
        return slotPrefix(stream) + ":not-before";
    }

    /** Counters kept beside a dead-letter stream by the scripts that write it. */
    public static String deadLetterStats(String deadLetters) {
        return slotPrefix(deadLetters) + ":stats";
    }

    /** The audit trail of a dead-letter stream: every replay, discard and redrive, with who and why. */
    public static String audit(String deadLetters) {
        return slotPrefix(deadLetters) + ":audit";
    }

    /**
     * The audit trail of the MCP calls that move nothing: reads, refusals before a tool runs, calls
     * that name no stream redrive knows. One stream for every process (a call about no stream has
     * no stream's slot to go to), capped by {@code redrive.agents.read-audit-records}; the calls
     * that may write are in their stream's {@link #audit}, kept whole.
     */
    public static String mcpCalls() {
        return "redrive:mcp-calls";
    }

    /**
     * The private stream of one warm-up (worker/WarmUp): under {@code redrive:}, so the
     * least-privilege ACL's {@code ~redrive:*} covers it, and in the slot of the stream
     * {@code beside}, so it is read by that queue's blocking reader (one per group, consumer and
     * slot) and opens no connection of its own; its not-before hash shares the tag. A stream whose
     * hashed part holds a brace can't be tagged that way: the run's own tag is used instead.
     */
    public static String warmUp(String beside, String run) {
        String hashed = HashSlot.hashedPart(beside);
        return hashed.indexOf('{') < 0 && hashed.indexOf('}') < 0
                ? "redrive:warm-up:{" + hashed + "}:" + run
                : "redrive:warm-up:{" + run + "}";
    }

    /**
     * The stored answer of a replay sent with an Idempotency-Key, so a retried request gets the
     * first answer back instead of a second job.
     */
    public static String replayAnswer(String deadLetters, String idempotencyKey) {
        return slotPrefix(deadLetters) + ":replay-answer:" + idempotencyKey;
    }

    /** Progress of one bulk redrive: a hash that survives a restart of the service. */
    public static String redriveTask(String deadLetters, String taskId) {
        return slotPrefix(deadLetters) + ":redrive:" + taskId;
    }

    /** The new entry ids of a redrive's canary, to see whether they came back. */
    public static String redriveCanary(String deadLetters, String taskId) {
        return slotPrefix(deadLetters) + ":redrive:" + taskId + ":canary";
    }

    /** The id of a dead-letter stream's latest real (not dry-run) redrive: one runs at a time. */
    public static String redriveRunning(String deadLetters) {
        return slotPrefix(deadLetters) + ":redrive-running";
    }

    /**
     * Ids of a dead-letter stream's unfinished redrives, scored by creation time: redrive-start.lua
     * adds each, redrive-claim.lua drops one it finds finished or expired.
     */
    public static String redriveTasks(String deadLetters) {
        return slotPrefix(deadLetters) + ":redrives";
    }

    /**
     * A proposed bulk redrive of a dead-letter stream, waiting for another operator's approval: a
     * hash in the stream's slot, so the approval and the task it starts are one script.
     */
    public static String proposal(String deadLetters, String proposalId) {
        return slotPrefix(deadLetters) + ":proposal:" + proposalId;
    }

    /** Ids of a dead-letter stream's proposals, scored by when they were made (epoch ms). */
    public static String proposals(String deadLetters) {
        return slotPrefix(deadLetters) + ":proposals";
    }

    /**
     * Ids of a dead-letter stream's proposals that wait for a decision, scored by when they expire
     * (epoch ms): proposal-create.lua adds each, proposal-approve.lua and proposal-reject.lua drop
     * the one they decide, and proposal-create.lua forgets the expired. A count of what waits is
     * one bounded range read of it (the console's badge), never a walk through every proposal.
     */
    public static String waitingProposals(String deadLetters) {
        return slotPrefix(deadLetters) + ":proposals-waiting";
    }

    /**
     * The outages of a queue that redrive proposed the redrive of (outage-propose.lua): in the
     * slot of the dead-letter stream the queue parks into, beside its proposals, so the check that
     * an outage has its proposal and the proposal are one script; one set per queue, as each
     * queue has its own circuit breaker.
     */
    public static String proposedOutages(String deadLetters, String queue) {
        return slotPrefix(deadLetters) + ":outages:" + queue;
    }

    /**
     * What redrive itself wrote into the entries it replayed from a dead-letter stream: a hash of
     * {@code <origin stream> <new entry id>} to {@code <replays> <redrive task key or nothing>}.
     * A park believes a job's replay count and redrive task only from here, never from the
     * entry's own fields, which any producer can write.
     */
    public static String replayed(String deadLetters) {
        return slotPrefix(deadLetters) + ":replayed";
    }

    /** The fields of {@link #replayed}, scored by when they were written, so old ones can be forgotten. */
    public static String replayedAt(String deadLetters) {
        return slotPrefix(deadLetters) + ":replayed-at";
    }

    /**
     * A console session ended by logout (api/ConsoleSessions): kept while a copy of its cookie
     * could still be valid, so the copy opens nothing. Process-wide, not a queue's: under
     * {@code redrive:}, which the ACL rule grants (docs/REDIS.md).
     */
    public static String consoleSessionEnded(String sessionId) {
        return "redrive:console:ended:" + sessionId;
    }

    public static boolean sameSlot(String a, String b) {
        return HashSlot.of(a) == HashSlot.of(b);
    }
}
