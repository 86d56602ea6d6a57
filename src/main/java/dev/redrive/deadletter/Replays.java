package dev.redrive.deadletter;

import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import dev.redrive.config.RedriveConfig;
import dev.redrive.job.LogText;
import dev.redrive.redis.DeadLetterScripts;
import dev.redrive.redis.LuaScripts;
import dev.redrive.redis.RedisTopology;
import dev.redrive.redis.Replication;
import dev.redrive.redis.ScriptReply;
import dev.redrive.trace.ReplaySpan;
import dev.redrive.trace.Tracing;
import io.smallrye.mutiny.Uni;

/**
 * Sends parked jobs back (replay.lua) or drops them on purpose (discard.lua). Both are one
 * atomic script each; this class names the streams a script may write to (allowed, and in the
 * dead-letter stream's hash slot), says why an origin outside them is refused, and turns each
 * script's return codes ({@link ScriptReply.Code}) into results or {@link DeadLetterException}s,
 * in one function per script. It also owns what an operator's input must be (the discard's
 * reason, the replay's note, the Idempotency-Key), so the API and the console apply one rule.
 */
@ApplicationScoped
public class Replays {

    private static final Logger LOG = Logger.getLogger(Replays.class);

    /** Longest discard reason, in characters, once trimmed. */
    public static final int MAX_REASON = 2000;
    /** Longest Idempotency-Key, in characters. */
    public static final int MAX_KEY = 200;

    /** What a replay asks for. {@code patch} values are raw bytes; {@code idempotencyKey} may be null. */
    public record Request(String deadLetters, String id, Map<String, byte[]> patch, String note, String actor,
            String idempotencyKey) {
    }

    /**
     * @param repeated true when this answers a retried request (same Idempotency-Key): no new job
     * @param parkedAttemptTrace the replayed record's last-attempt-trace ("" when none or repeated)
     */
    public record Replayed(String deadLetters, String id, String stream, String newId, boolean repeated,
            String parkedAttemptTrace) {
    }

    @Inject
    RedisTopology topology;

    @Inject
    DeadLetterScripts scripts;

    @Inject
    DeadLetterReader store;

    @Inject
    ReplayTargets targets;

    @Inject
    DeadLetterMetrics metrics;

    @Inject
    RedriveConfig config;

    @Inject
    Clock clock;

    @Inject
    Tracing tracing;

    /**
     * Replays the entry in one script call, which also reads it and looks up the Idempotency-Key's
     * earlier answer: reading either here first would let a concurrent request with the same key
     * find the entry gone before its answer was there to be seen. With tracing on the replay is a
     * span of its own: the new entry carries its traceparent, and it links to the parked job's last
     * attempt (which only the script's answer names, so the link is added once it is known).
     */
    public Uni<Replayed> replay(Request request) {
        String dlq = request.deadLetters();
        store.requireKnown(dlq);
        String idempotencyKey = request.idempotencyKey() == null ? "" : idempotencyKey(request.idempotencyKey());
        Map<String, byte[]> patch = request.patch() == null ? Map.of() : request.patch();
        ReplaySpan span = tracing.replay(dlq, request.id(), request.actor());
        DeadLetterScripts.Replay replay = new DeadLetterScripts.Replay(request.id(), request.actor(), now(),
                note(request.note()), idempotencyKey,
                Math.max(1, config.replay().idempotencyTtl().toSeconds()), span == null ? "" : span.traceparent(), patch);
        Uni<Replayed> replayed = scripts.replay(dlq, writableFrom(dlq), replay)
                .map(written -> replicated(outcome(request, ScriptReply.of(LuaScripts.Script.REPLAY, written.reply())), written));
        if (span == null) {
            return replayed;
        }
        return replayed.invoke(r -> {
            if (!r.repeated()) {
                span.linkTo(r.parkedAttemptTrace());
            }
            span.end(r.repeated() ? 0 : 1);
        }).onFailure().invoke(span::fail);
    }

    /** Why a replay from {@code dlq} to {@code origin} may not happen, or null when it may. */
    DeadLetterException refusal(String origin, String dlq) {
        if (!targets.mayReplayTo(origin)) {
            return new DeadLetterException(DeadLetterException.Reason.ORIGIN_NOT_ALLOWED,
                    "the record's origin stream '" + origin + "' is neither a configured queue's stream nor in "
                            + "redrive.replay.allowed-streams; redrive writes to no other stream");
        }
        if (!topology.oneScript(origin, dlq)) {
            return new DeadLetterException(DeadLetterException.Reason.CROSS_SLOT,
                    "'" + origin + "' and '" + dlq + "' are in different Redis Cluster hash slots, so the replay can't "
                            + "be one atomic step; give the queue a dead-letter stream with the stream's hash tag "
                            + "(the default {" + origin + "}:dlq) instead of a shared DLQ_NAME");
        }
        return null;
    }

    /** The streams a replay from {@code dlq} may write to: what a redrive's step may move entries onto. */
    public List<String> writableFrom(String dlq) {
        return targets.allowedOrigins().stream().filter(origin -> topology.oneScript(origin, dlq)).toList();
    }

    /**
     * Discards an entry; the audit record keeps it whole, with the reason as {@link #reason} leaves
     * it. Returns the audit entry id.
     */
    public Uni<String> discard(String deadLetters, String id, String reason, String actor) {
        store.requireKnown(deadLetters);
        String why = reason(reason);
        return scripts.discard(deadLetters, id, actor, now(), why).map(written -> {
            ScriptReply reply = ScriptReply.of(LuaScripts.Script.DISCARD, written.reply());
            switch (reply.code()) {
                case DISCARDED -> {
                    metrics.discarded(deadLetters);
                    LOG.infof("%s discarded %s/%s: %s; the audit trail keeps the record", LogText.of(actor), deadLetters, id,
                            LogText.of(why));
                    if (!written.confirmed()) {
                        throw DeadLetterException.notReplicated("discarded " + deadLetters + "/" + id
                                + " (audit record " + reply.text(1) + ")", written);
                    }
                    return reply.text(1);
                }
                case GONE -> throw gone(deadLetters, id);
                case WRONG_TYPE -> throw wrongType("discarded", reply);
                default -> throw unexpected(reply);
            }
        });
    }

    /**
     * A discard's reason as the audit trail keeps it: without the white space around it (a form's
     * text area or a URL-encoded query adds some), 1 to {@value #MAX_REASON} characters. None, or
     * only white space, is refused: a discard is never silent.
     */
    public static String reason(String reason) {
        String why = reason == null ? "" : reason.strip();
        if (why.isEmpty()) {
            throw new DeadLetterException(DeadLetterException.Reason.BAD_REASON,
                    "a discard needs a reason (it is kept in the audit trail)");
        }
        if (why.length() > MAX_REASON) {
            throw new DeadLetterException(DeadLetterException.Reason.BAD_REASON,
                    "a discard's reason is limited to " + MAX_REASON + " characters (it has " + why.length() + ")");
        }
        return why;
    }

    /**
     * A replay's note as the audit trail keeps it: without the white space around it, like a
     * discard's reason (a form's text area or a hand-written JSON body adds some); none, or only
     * white space, is no note (""). Unlike the reason it is optional.
     */
    public static String note(String note) {
        return note == null ? "" : note.strip();
    }

    /**
     * An Idempotency-Key as a replay uses it, wherever it came from (the API's header, the
     * console's confirm form): 1 to {@value #MAX_KEY} characters, not blank, and kept as given (a key
     * is compared exactly, so white space in it counts). An empty key is refused rather than taken
     * as none: the caller who sent it relies on it, and the replay it was to guard would run twice.
     */
    public static String idempotencyKey(String key) {
        if (key == null || key.isBlank() || key.length() > MAX_KEY) {
            throw new DeadLetterException(DeadLetterException.Reason.BAD_KEY, "Idempotency-Key must be 1 to "
                    + MAX_KEY + " characters, not blank (leave it out to send none)");
        }
        return key;
    }

    /** The replay's result once enough replicas have it; a new job they don't have is a 503 that says it exists. */
    private static Replayed replicated(Replayed replayed, Replication.Written written) {
        if (!replayed.repeated() && !written.confirmed()) {
            throw DeadLetterException.notReplicated("replayed " + replayed.deadLetters() + "/" + replayed.id()
                    + " to " + replayed.stream() + " as " + replayed.newId(), written);
        }
        return replayed;
    }

    /** replay.lua's answer as a result, or the exception it means. */
    private Replayed outcome(Request request, ScriptReply reply) {
        switch (reply.code()) {
            case REPLAYED -> {
                String newId = reply.text(1);
                String origin = reply.text(2);
                metrics.replayed(request.deadLetters());
                LOG.infof("%s replayed %s/%s to %s as %s", LogText.of(request.actor()), request.deadLetters(), request.id(),
                        LogText.of(origin), newId);
                return new Replayed(request.deadLetters(), request.id(), origin, newId, false, reply.text(3));
            }
            case AGAIN -> {
                return new Replayed(request.deadLetters(), request.id(), reply.text(2), reply.text(1), true, "");
            }
            case KEY_REUSED -> throw keyReused(request, reply.text(1));
            case GONE -> throw gone(request.deadLetters(), request.id());
            case UNREADABLE -> throw new DeadLetterException(DeadLetterException.Reason.NO_SNAPSHOT,
                    "entry " + request.id() + " is not a record redrive can send back (it has no origin-id, or its "
                            + "packed snapshot does not decode); nothing was replayed: discard it with a reason");
            case NO_SNAPSHOT -> throw new DeadLetterException(DeadLetterException.Reason.NO_SNAPSHOT,
                    "job " + request.id() + " was trimmed from its stream before it was parked: there is no snapshot "
                            + "to send back; discard it with a reason once handled");
            case NOT_WRITABLE -> {
                DeadLetterException refused = refusal(reply.text(1), request.deadLetters());
                throw refused != null ? refused : unexpected(reply);
            }
            case WRONG_TYPE -> throw wrongType("replayed", reply);
            default -> throw unexpected(reply);
        }
    }

    private static DeadLetterException wrongType(String what, ScriptReply reply) {
        return new DeadLetterException(DeadLetterException.Reason.WRONG_TYPE,
                "nothing was " + what + ": " + reply.text(1) + "; redrive writes only streams and its own hashes there");
    }

    /** A code the script may give that this caller can't (ScriptReply refuses codes a script can't give). */
    private static IllegalStateException unexpected(ScriptReply reply) {
        return new IllegalStateException("unexpected script answer " + reply.reply());
    }

    private static DeadLetterException gone(String deadLetters, String id) {
        return new DeadLetterException(DeadLetterException.Reason.GONE, "no entry " + id + " in " + deadLetters
                + ": it was never parked there, or it was already replayed or discarded (see its audit trail)");
    }

    private static DeadLetterException keyReused(Request request, String otherId) {
        return new DeadLetterException(DeadLetterException.Reason.KEY_REUSED, "Idempotency-Key '"
                + request.idempotencyKey() + "' already answered a replay of entry " + otherId
                + "; use a new key for each entry");
    }

    /** The audit record's time: milliseconds, as every other instant redrive writes. */
    private String now() {
        return clock.instant().truncatedTo(ChronoUnit.MILLIS).toString();
    }
}
