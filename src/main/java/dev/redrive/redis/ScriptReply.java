package dev.redrive.redis;

import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import io.vertx.mutiny.redis.client.Response;
import io.vertx.redis.client.ResponseType;

/**
 * A script's coded answer, {@code { code, value, ... }}. The codes of every script are named here
 * once (each script's header lists its own; {@code LuaScriptsTest} checks the two agree), and
 * {@link #of} is the one place a reply becomes a code and its values. What a code means to a
 * caller (a result, an exception) is the caller's: {@code redis} knows no policy.
 */
public record ScriptReply(Code code, Response reply) {

    public enum Code {
        /** dead-letter.lua: the job is parked as the given id. */
        PARKED,
        /** dead-letter.lua: the job is not pending any more (someone acked or parked it). */
        NOT_PENDING,
        /**
         * dead-letter.lua: the job's stream entry was trimmed and it was not parked as missing:
         * nothing was written, it stays pending to be parked again as missing.
         */
        TRIMMED,
        /** A key the script would write holds another type: nothing was written; the sentence names it. */
        WRONG_TYPE,
        /** replay.lua: replayed as the given new id, to the given origin. */
        REPLAYED,
        /** replay.lua: the same Idempotency-Key answered this entry before: its new id and stream. */
        AGAIN,
        /** replay.lua: the Idempotency-Key answered another entry, named. */
        KEY_REUSED,
        /** No such entry: never parked, or already replayed or discarded. */
        GONE,
        /** replay.lua: the job was trimmed before it was parked; there is nothing to send back. */
        NO_SNAPSHOT,
        /** replay.lua: no origin id, or a packed snapshot that does not decode: nothing was written. */
        UNREADABLE,
        /** replay.lua: the record's origin, given, is none of the streams the script may write. */
        NOT_WRITABLE,
        /** discard.lua: discarded; the audit entry's id. */
        DISCARDED,
        /** redrive-count.lua, redrive-step.lua: the step ran (done flag, and moves for a step). */
        OK,
        /** redrive-count.lua, redrive-step.lua: the runner no longer holds the task; nothing written. */
        STOPPED,
        /** redrive-start.lua: the task is created. */
        STARTED,
        /** redrive-start.lua: another task of the stream, named with its state, is unfinished. */
        RUNNING,
        /**
         * redrive-start.lua: the running-task pointer moved since it was read; redrive-move.lua: the
         * task left the state the caller saw (its state now is given). Nothing was written: read it again.
         */
        CHANGED,
        /** redrive-move.lua: the task moved to the state asked for. */
        MOVED,
        /** read-value.lua: the value's full length and a slice of it. */
        VALUE,
        /** read-value.lua: the entry has no such field. */
        NO_FIELD,
        /** proposal-create.lua, outage-propose.lua: the proposal is stored. */
        CREATED,
        /** outage-propose.lua: an overlapping outage of the queue has its proposal, given; nothing written. */
        PROPOSED_BEFORE,
        /** proposal-approve.lua: approved, and its task created. */
        APPROVED,
        /** proposal-reject.lua: rejected. */
        REJECTED,
        /** proposal-approve.lua, proposal-reject.lua: the proposal was decided before; its state is given. */
        DECIDED,
        /** proposal-approve.lua, proposal-reject.lua: the proposal expired undecided. */
        EXPIRED,
        /** proposal-approve.lua, proposal-reject.lua: the caller proposed it, and may not decide it. */
        OWN;

        /** The code as the scripts write it: {@code not-pending} for NOT_PENDING. */
        public final String wire = name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    private static final Map<String, Code> BY_WIRE = Arrays.stream(Code.values())
            .collect(Collectors.toUnmodifiableMap(c -> c.wire, Function.identity()));

    /** The reply of {@code script}; an answer it is not documented to give fails as a bug would. */
    public static ScriptReply of(LuaScripts.Script script, Response reply) {
        Code code = reply != null && reply.type() == ResponseType.MULTI && reply.size() > 0
                ? BY_WIRE.get(reply.get(0).toString())
                : null;
        if (code == null || !script.codes.contains(code)) {
            throw new IllegalStateException(script.file + " answered " + reply);
        }
        return new ScriptReply(code, reply);
    }

    /** The value at {@code index} (the code is 0) as text. */
    public String text(int index) {
        return reply.get(index).toString();
    }

    public long number(int index) {
        return reply.get(index).toLong();
    }

    public byte[] bytes(int index) {
        return reply.get(index).toBytes();
    }
}
