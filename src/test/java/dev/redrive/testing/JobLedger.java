package dev.redrive.testing;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The one invariant check of "nothing lost, nothing twice" (issue 24.7), shared by the process-level
 * tests and the soak ({@code bench/java/dev/redrive/bench/Soak.java}, which runs with
 * {@code target/test-classes} on its class path; this class uses nothing but the JDK).
 * <p>
 * A job lives one or more lives: the stream entry its producer added, then one per replay or
 * redrive of it. The producer records a job only once Redis acknowledged its {@code XADD} (under
 * replication: once {@code WAIT 1} confirmed it), so an add that failed is not expected and an add
 * whose reply was lost shows up as an unacknowledged life, reported but not held against anyone.
 * At the end every acknowledged life must be done (its handler succeeded at least once) or parked
 * (a dead-letter record, now or replayed since), not both, parked at most once, and a dead letter
 * (one dead-letter record) is replayed at most once. Runs of one life beyond its first success are at-least-once re-runs:
 * counted and reported, never a failure and never hidden.
 */
public final class JobLedger {

    /** job id by the life (entry id) it lives in */
    private final Map<String, String> lives = new ConcurrentHashMap<>();
    private final Map<String, Integer> successes = new ConcurrentHashMap<>();
    private final Map<String, Integer> attempts = new ConcurrentHashMap<>();
    /** the dead-letter records (ids) of each parked life */
    private final Map<String, Set<String>> parks = new ConcurrentHashMap<>();
    /** the new lives made from each dead-letter record, by its id (sets: reading Redis again adds nothing) */
    private final Map<String, Set<String>> replays = new ConcurrentHashMap<>();

    /** Redis acknowledged job {@code job} as entry {@code entryId} (and a replica confirmed it, where one is asked). */
    public void produced(String job, String entryId) {
        lives.put(entryId, job);
    }

    /** The handler (downstream) was called for a life, whatever it answered. */
    public void attempted(String entryId) {
        attempts.merge(entryId, 1, Integer::sum);
    }

    /** The handler succeeded for a life: once is done, more are at-least-once re-runs. */
    public void succeeded(String entryId) {
        attempted(entryId);
        successes.merge(entryId, 1, Integer::sum);
    }

    /** Dead-letter record {@code dlqId} holds life {@code originId}: parked now, or parked then replayed or discarded. */
    public void parked(String dlqId, String originId) {
        parks.computeIfAbsent(originId, k -> ConcurrentHashMap.newKeySet()).add(dlqId);
    }

    /** A replay or a redrive's move (from the audit trail) turned dead letter {@code dlqId} into a new life of its job. */
    public void replayed(String dlqId, String parkedLife, String newEntryId) {
        parked(dlqId, parkedLife);
        replays.computeIfAbsent(dlqId, k -> ConcurrentHashMap.newKeySet()).add(newEntryId);
        String job = lives.get(parkedLife);
        lives.put(newEntryId, job == null ? "?" + parkedLife : job);
    }

    /** Runs one Redis command: replies as RESP2 gives them (List, Long, String or byte[] bulk strings, null). */
    public interface Redis {
        Object call(String... args) throws Exception;
    }

    /**
     * Reads every park and every replay from Redis: the records in dead-letter stream {@code dlq},
     * and the {@code replay}, {@code redrive-moves} and {@code discard} records of its audit stream
     * (a replayed or discarded dead letter is gone from {@code dlq}; the audit trail keeps it).
     * Reading again, while jobs still settle, records nothing twice.
     */
    public void readDeadLetters(Redis redis, String dlq, String audit) throws Exception {
        scan(redis, dlq, (id, f) -> parked(id, f.get("origin-id")));
        scan(redis, audit, (id, f) -> {
            switch (f.getOrDefault("action", "")) {
                case "replay" -> replayed(f.get("dlq-id"), f.get("origin-id"), f.get("new-id"));
                case "redrive-moves" -> {
                    for (String move : f.get("moves").split("\n")) {
                        String[] p = move.split(" "); // dead-letter id, new id, origin id, origin stream
                        replayed(p[0], p[2], p[1]);
                    }
                }
                case "discard" -> parked(f.get("dlq-id"), f.get("origin-id"));
                default -> { }
            }
        });
    }

    private static void scan(Redis redis, String key, java.util.function.BiConsumer<String, Map<String, String>> visit) throws Exception {
        String from = "-";
        while (true) {
            List<?> page = (List<?>) redis.call("XRANGE", key, from, "+", "COUNT", "1000");
            if (page == null || page.isEmpty()) {
                return;
            }
            for (Object e : page) {
                List<?> entry = (List<?>) e, flat = (List<?>) entry.get(1);
                Map<String, String> fields = new HashMap<>();
                for (int i = 0; i + 1 < flat.size(); i += 2) {
                    fields.put(text(flat.get(i)), text(flat.get(i + 1)));
                }
                from = "(" + text(entry.get(0));
                visit.accept(text(entry.get(0)), fields);
            }
        }
    }

    private static String text(Object reply) {
        return reply instanceof byte[] b ? new String(b, StandardCharsets.UTF_8) : String.valueOf(reply);
    }

    /** How many acknowledged jobs there are (distinct job ids of producer lives). */
    public long jobs() {
        return lives.values().stream().filter(j -> !j.startsWith("?")).distinct().count();
    }

    /** Checks every rule over what was recorded so far. */
    public Report check() {
        List<String> lost = new ArrayList<>(), neverAttempted = new ArrayList<>(), parkedTwice = new ArrayList<>();
        List<String> doneAndParked = new ArrayList<>(), replayedTwice = new ArrayList<>();
        long done = 0, parked = 0, reruns = 0;
        for (var life : lives.entrySet()) {
            String id = life.getKey();
            int ok = successes.getOrDefault(id, 0), p = parks.getOrDefault(id, Set.of()).size();
            String name = id + " (job " + life.getValue() + ")";
            done += ok > 0 ? 1 : 0;
            parked += p > 0 ? 1 : 0;
            reruns += Math.max(0, ok - 1);
            if (ok == 0 && p == 0) {
                (attempts.containsKey(id) ? lost : neverAttempted).add(name);
            }
            if (p > 1) {
                parkedTwice.add(name + " in dead letters " + new TreeSet<>(parks.get(id)));
            }
            if (ok > 0 && p > 0) {
                doneAndParked.add(name);
            }
        }
        for (var r : replays.entrySet()) {
            if (r.getValue().size() > 1) {
                replayedTwice.add(r.getKey() + " -> " + new TreeSet<>(r.getValue()));
            }
        }
        List<String> extra = new ArrayList<>();
        successes.keySet().stream().filter(id -> !lives.containsKey(id)).forEach(extra::add);
        parks.keySet().stream().filter(id -> !lives.containsKey(id)).forEach(extra::add);
        return new Report(jobs(), lives.size(), done, parked, reruns, extra.stream().distinct().count(),
                lost, neverAttempted, parkedTwice, doneAndParked, replayedTwice);
    }

    /**
     * What the check found. {@code lost}: attempted, neither done nor parked; {@code neverAttempted}:
     * neither done nor parked and never seen by the handler (trimmed unread by a producer's MAXLEN,
     * or dropped before its first attempt: no consumer can tell which, so both fail the check).
     * {@code unacknowledgedLives}: done or parked lives the producer never recorded (an add whose
     * reply was lost), reported only.
     */
    public record Report(long jobs, long lives, long done, long parked, long reruns, long unacknowledgedLives,
                         List<String> lost, List<String> neverAttempted, List<String> parkedTwice,
                         List<String> doneAndParked, List<String> replayedTwice) {

        public boolean clean() {
            return lost.isEmpty() && neverAttempted.isEmpty() && parkedTwice.isEmpty() && doneAndParked.isEmpty()
                    && replayedTwice.isEmpty();
        }

        /** Throws an AssertionError naming every broken rule. */
        public Report assertClean() {
            if (!clean()) {
                throw new AssertionError("job ledger not clean:\n" + this);
            }
            return this;
        }

        @Override
        public String toString() {
            return String.format("jobs acknowledged: %d; lives: %d (%d done, %d parked)%n", jobs, lives, done, parked)
                    + String.format("at-least-once re-runs (a done life run again): %d%n", reruns)
                    + String.format("unacknowledged lives (an add whose reply was lost, done or parked): %d%n", unacknowledgedLives)
                    + line("lost (attempted, neither done nor parked)", lost)
                    + line("never attempted, neither done nor parked (trimmed unread or dropped)", neverAttempted)
                    + line("parked more than once in one life", parkedTwice)
                    + line("done and parked in one life", doneAndParked)
                    + line("dead letter replayed more than once", replayedTwice)
                    + "verdict: " + (clean() ? "PASS" : "FAIL") + "\n";
        }

        private static String line(String what, List<String> items) {
            String head = items.isEmpty() ? "" : " " + items.subList(0, Math.min(5, items.size())) + (items.size() > 5 ? " ..." : "");
            return what + ": " + items.size() + head + "\n";
        }
    }
}
