package dev.redrive.redis;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Response;

/**
 * The writes of the dead-letter wing: park (dead-letter.lua), replay (replay.lua), discard
 * (discard.lua), and forgetting the replay ledger of jobs that are done. Each method builds its
 * script's KEYS and ARGV in the order the script's header names them; what the values are, and
 * what a return code means to the caller, is decided in {@code deadletter/}.
 */
@ApplicationScoped
public class DeadLetterScripts {

    /** One job to park: its entry id and its record (dead-letter.lua adds the snapshot and the replay count). */
    public record Park(String id, String failureKind, String fingerprint, String fingerprintText, List<String> recordPairs) {
    }

    /**
     * What dead-letter.lua did with one job: parked as {@code id}; or no longer pending (all null:
     * someone else acked or parked it); or trimmed (its entry is gone: to be parked again as
     * missing); or refused for {@code reason} (a short code, a metric tag) with nothing written, so
     * it stays pending.
     */
    public record Parked(String id, String reason, String detail) {

        static final Parked TRIMMED = new Parked(null, ScriptReply.Code.TRIMMED.wire, null);

        public boolean trimmed() {
            return TRIMMED.equals(this);
        }

        public boolean refused() {
            return reason != null && !trimmed();
        }
    }

    /**
     * What a replay writes besides the entry: who, when, why, and the patch (values may be any
     * bytes). {@code idempotencyKey} is empty when the caller sent none; {@code traceparent} (the
     * replay span's, written into the new entry) is empty with tracing off.
     */
    public record Replay(String id, String actor, String at, String note, String idempotencyKey, long answerTtlSeconds,
            String traceparent, Map<String, byte[]> patch) {
    }

    @Inject
    ReactiveRedisDataSource redis;

    @Inject
    LuaScripts scripts;

    /**
     * Runs dead-letter.lua for jobs of one stream, one outcome per job. {@code redriveTasks} are
     * the redrive tasks the jobs' own fields name (each once); the script raises a task's failed
     * count for a job only if redrive's ledger says that task sent it. Replays recorded before
     * {@code forgetBeforeMillis} are forgotten.
     */
    public Uni<List<Parked>> park(String stream, String group, String deadLetters, List<Park> parks,
            Collection<String> redriveTasks, long forgetBeforeMillis) {
        List<String> args = new ArrayList<>(2 + parks.size() * 40);
        args.add(group);
        args.add(Long.toString(forgetBeforeMillis));
        for (Park park : parks) {
            args.add(park.id());
            args.add(park.failureKind());
            args.add(park.fingerprint());
            args.add(park.fingerprintText());
            args.add(Integer.toString(park.recordPairs().size()));
            args.addAll(park.recordPairs());
        }
        List<String> keys = new ArrayList<>(List.of(stream, deadLetters, RedisKeys.deadLetterStats(deadLetters),
                RedisKeys.notBefore(stream), RedisKeys.replayed(deadLetters), RedisKeys.replayedAt(deadLetters)));
        keys.addAll(redriveTasks);
        return scripts.run(LuaScripts.Script.DEAD_LETTER, keys, args).map(reply -> {
            List<Parked> outcomes = new ArrayList<>(reply.size());
            for (Response r : reply) {
                ScriptReply job = ScriptReply.of(LuaScripts.Script.DEAD_LETTER, r);
                switch (job.code()) {
                    case PARKED -> outcomes.add(new Parked(job.text(1), null, null));
                    case NOT_PENDING -> outcomes.add(new Parked(null, null, null));
                    case TRIMMED -> outcomes.add(Parked.TRIMMED);
                    default -> outcomes.add(new Parked(null, job.code().wire, job.text(1)));
                }
            }
            return outcomes;
        });
    }

    /**
     * Forgets what replay.lua recorded in the ledger of {@code deadLetters} for replayed entries of
     * {@code stream} that are done: only a job that comes back needs it, and a large redrive would
     * otherwise leave one ledger field per moved job until parks prune it.
     */
    public Uni<Void> forgetReplays(String deadLetters, String stream, List<String> ids) {
        String[] members = ids.stream().map(id -> stream + " " + id).toArray(String[]::new);
        return redis.hash(String.class, String.class, String.class).hdel(RedisKeys.replayed(deadLetters), members)
                .flatMap(n -> redis.sortedSet(String.class).zrem(RedisKeys.replayedAt(deadLetters), members))
                .replaceWithVoid();
    }

    /**
     * Runs replay.lua on one entry of {@code deadLetters}; {@code writable} are the streams it may
     * add the job to (each in the dead-letter stream's hash slot).
     */
    public Uni<ScriptReply> replay(String deadLetters, List<String> writable, Replay replay) {
        List<String> keys = new ArrayList<>(List.of(deadLetters, RedisKeys.deadLetterStats(deadLetters),
                RedisKeys.audit(deadLetters), RedisKeys.replayAnswer(deadLetters, replay.idempotencyKey()),
                RedisKeys.replayed(deadLetters), RedisKeys.replayedAt(deadLetters)));
        keys.addAll(writable);
        List<byte[]> args = new ArrayList<>();
        args.add(bytes(replay.id()));
        args.add(bytes(replay.actor()));
        args.add(bytes(replay.at()));
        args.add(bytes(replay.note()));
        args.add(bytes(replay.idempotencyKey()));
        args.add(bytes(Long.toString(replay.answerTtlSeconds())));
        args.add(bytes(replay.traceparent()));
        replay.patch().forEach((name, value) -> {
            args.add(bytes(name));
            args.add(value);
        });
        return scripts.callBinary(LuaScripts.Script.REPLAY, keys, args);
    }

    /** Runs discard.lua: deletes the entry with an audit record that keeps it whole. */
    public Uni<ScriptReply> discard(String deadLetters, String id, String actor, String at, String reason) {
        List<String> keys = List.of(deadLetters, RedisKeys.deadLetterStats(deadLetters), RedisKeys.audit(deadLetters));
        return scripts.call(LuaScripts.Script.DISCARD, keys, List.of(id, actor, at, reason));
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
