package dev.redrive.redis;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
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

    @Inject
    Replication replication;

    /**
     * Runs dead-letter.lua for jobs of one stream, one outcome per job. {@code redriveTasks} are
     * the redrive tasks the jobs' own fields name (each once); the script raises a task's failed
     * count for a job only if redrive's ledger says that task sent it. Replays recorded before
     * {@code forgetBeforeMillis} are forgotten.
     */
    public Uni<List<Parked>> park(String stream, String group, String deadLetters, List<Park> parks,
            Collection<String> redriveTasks, long forgetBeforeMillis) {
        List<String> args = parkArguments(group, forgetBeforeMillis, parks);
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
     * dead-letter.lua's ARGV for {@code parks} (its header, and lib/park-args.lua): the group, the
     * forget-before time, then each distinct record shape once (kind, cause, the record's items with
     * the values that differ between its jobs left empty, and where those are), then per job its
     * id, its shape and its own values. Jobs with the same kind, cause and field names share a shape;
     * a value is the job's own when any job of the shape has another. Each argument costs Redis
     * more than the script's use of it, so a batch that failed alike sends its shared values once.
     */
    public static List<String> parkArguments(String group, long forgetBeforeMillis, List<Park> parks) {
        Map<List<String>, List<Park>> byShape = new LinkedHashMap<>();
        for (Park park : parks) {
            List<String> key = new ArrayList<>(List.of(park.failureKind(), park.fingerprint(), park.fingerprintText()));
            for (int i = 0; i < park.recordPairs().size(); i += 2) {
                key.add(park.recordPairs().get(i));
            }
            byShape.computeIfAbsent(key, k -> new ArrayList<>()).add(park);
        }
        List<String> args = new ArrayList<>();
        args.add(group);
        args.add(Long.toString(forgetBeforeMillis));
        args.add(Integer.toString(byShape.size()));
        Map<Park, Integer> shapeOf = new IdentityHashMap<>();
        List<List<Integer>> placesOf = new ArrayList<>();
        for (List<Park> members : byShape.values()) {
            List<String> items = new ArrayList<>(members.get(0).recordPairs());
            List<Integer> places = new ArrayList<>();
            for (int i = 1; i < items.size(); i += 2) {
                int at = i;
                if (members.stream().anyMatch(p -> !p.recordPairs().get(at).equals(items.get(at)))) {
                    items.set(i, "");
                    places.add(i + 1); // 1-based, as the script counts
                }
            }
            Park first = members.get(0);
            args.addAll(List.of(first.failureKind(), first.fingerprint(), first.fingerprintText(),
                    Integer.toString(items.size())));
            args.addAll(items);
            args.add(Integer.toString(places.size()));
            places.forEach(place -> args.add(Integer.toString(place)));
            placesOf.add(places);
            members.forEach(p -> shapeOf.put(p, placesOf.size()));
        }
        for (Park park : parks) {
            int shape = shapeOf.get(park);
            args.add(park.id());
            args.add(Integer.toString(shape));
            placesOf.get(shape - 1).forEach(place -> args.add(park.recordPairs().get(place - 1)));
        }
        return args;
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
     * add the job to (each in the dead-letter stream's hash slot). Waits for replicas as
     * {@link Replication} says.
     */
    public Uni<Replication.Written> replay(String deadLetters, List<String> writable, Replay replay) {
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
        return replication.runBinary(LuaScripts.Script.REPLAY, keys, args);
    }

    /** Runs discard.lua: deletes the entry with an audit record that keeps it whole; waits for replicas as a replay. */
    public Uni<Replication.Written> discard(String deadLetters, String id, String actor, String at, String reason) {
        List<String> keys = List.of(deadLetters, RedisKeys.deadLetterStats(deadLetters), RedisKeys.audit(deadLetters));
        return replication.run(LuaScripts.Script.DISCARD, keys, List.of(id, actor, at, reason));
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
