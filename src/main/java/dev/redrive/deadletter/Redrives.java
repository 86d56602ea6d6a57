package dev.redrive.deadletter;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.redrive.config.ProcessIdentity;
import dev.redrive.config.QueueSpec;
import dev.redrive.config.RedriveConfig;
import dev.redrive.redis.LuaScripts;
import dev.redrive.redis.RedisKeys;
import dev.redrive.redis.ScriptReply;
import dev.redrive.redis.StreamAccess;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.redis.datasource.hash.ReactiveHashCommands;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Response;

/**
 * Bulk replays ("redrives"): a filter, a pace, an optional canary. A task's whole state lives in
 * a hash in the dead-letter stream's slot, so any process can report it, cancel it or take it
 * over. States: counting → (canary →) running → completed, or cancelled / aborted; a dry run
 * stops after counting.
 * <p>
 * A runner walks the stream oldest first, from its stored cursor up to the newest entry at
 * creation (so jobs that come back during the task are not moved again by it). Each step is one
 * call of redrive-step.lua that filters a page, moves what matches, and advances the cursor and the
 * counters in the same atomic step, and only for the runner that holds the task: after a crash or
 * a takeover the next runner starts exactly where the last step ended, so nothing moves twice and
 * nothing is skipped.
 */
@ApplicationScoped
public class Redrives {

    private static final Logger LOG = Logger.getLogger(Redrives.class);
    /** Entries one step examines at most: a few milliseconds of Redis time per script call. */
    private static final int PAGE = 200;
    private static final int COUNT_PAGE = 1000;
    private static final Duration CANARY_POLL = Duration.ofMillis(100);
    private static final long RENEW_EVERY_NANOS = 500_000_000L;

    public enum State {
        COUNTING, CANARY, RUNNING, COMPLETED, CANCELLED, ABORTED;

        public String value() {
            return name().toLowerCase();
        }

        public boolean finished() {
            return this == COMPLETED || this == CANCELLED || this == ABORTED;
        }

        static State of(String s) {
            return State.valueOf(s.toUpperCase());
        }
    }

    /** What a redrive moves and how fast. */
    public record Spec(EntryFilter filter, int maxPerSecond, boolean dryRun, int canary, double maxRefailRate,
            String note) {
    }

    /**
     * @param matched  entries matching the filter (known once counting is done, else -1)
     * @param failed   jobs this task moved that were parked again
     * @param skipped  matching entries it could not move (origin not allowed, other hash slot, no snapshot)
     */
    public record Status(String id, String dlq, String state, boolean dryRun, int maxPerSecond, int canary,
            double maxRefailRate, long matched, long moved, long remaining, long failed, long skipped, long canaryMoved,
            String detail, String createdBy, Instant createdAt, Instant finishedAt) {
    }

    @Inject
    ReactiveRedisDataSource redis;

    @Inject
    DeadLetterStore store;

    @Inject
    Replays replays;

    @Inject
    ReplayTargets targets;

    @Inject
    LuaScripts scripts;

    @Inject
    DeadLetterMetrics metrics;

    @Inject
    RedriveConfig config;

    @Inject
    Clock clock;

    @Inject
    ObjectMapper mapper;

    @Inject
    io.vertx.mutiny.core.Vertx vertx;

    @Inject
    ProcessIdentity identity;

    private final ExecutorService runners = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "redrive-task");
        t.setDaemon(true);
        return t;
    });
    private final Map<String, Future<?>> local = new ConcurrentHashMap<>();

    private ReactiveHashCommands<String, String, String> hashes() {
        return redis.hash(String.class, String.class, String.class);
    }

    public Status start(String dlq, Spec spec, String actor) {
        store.requireKnown(dlq);
        String id = UUID.randomUUID().toString();
        String until = store.newestId(dlq).await().atMost(timeout());
        Map<String, String> task = new HashMap<>();
        task.put("id", id);
        task.put("dlq", dlq);
        task.put("state", State.COUNTING.value());
        task.put("filter", json(spec.filter()));
        task.put("max-per-second", Integer.toString(spec.maxPerSecond()));
        task.put("dry-run", Boolean.toString(spec.dryRun()));
        task.put("canary", Integer.toString(spec.canary()));
        task.put("max-refail-rate", Double.toString(spec.maxRefailRate()));
        task.put("note", spec.note() == null ? "" : spec.note());
        task.put("until", until == null ? "0-0" : until);
        task.put("matched", "0");
        task.put("moved", "0");
        task.put("failed", "0");
        task.put("skipped", "0");
        task.put("canary-moved", "0");
        task.put("created-by", actor);
        task.put("created-at", now().toString());
        create(dlq, id, spec.dryRun(), task);
        audit(dlq, id, "redrive", actor, spec.note() == null ? "" : spec.note());
        LOG.infof("%s started redrive %s of %s (dry run %s, %d/s, canary %d)", actor, id, dlq, spec.dryRun(),
                spec.maxPerSecond(), spec.canary());
        launch(dlq, id);
        return status(dlq, id);
    }

    /**
     * Stores the new task unless a real redrive of the same stream is unfinished: two at once
     * would each count what the other moves. redrive-start.lua checks and creates in one step; it
     * needs the running task's key up front, so a start that raced another reads the pointer again.
     */
    private void create(String dlq, String id, boolean dryRun, Map<String, String> task) {
        String pointer = RedisKeys.redriveRunning(dlq);
        String key = RedisKeys.redriveTask(dlq, id);
        for (int attempt = 0; attempt < 10; attempt++) {
            String seen = dryRun ? null : redis.value(String.class, String.class).get(pointer).await().atMost(timeout());
            List<String> keys = List.of(pointer, seen == null ? key : RedisKeys.redriveTask(dlq, seen), key,
                    RedisKeys.redriveTasks(dlq));
            List<String> args = new ArrayList<>(List.of(seen == null ? "" : seen, id, Long.toString(clock.millis()),
                    dryRun ? "1" : "0"));
            task.forEach((name, value) -> {
                args.add(name);
                args.add(value);
            });
            ScriptReply created = scripts.call(LuaScripts.Script.REDRIVE_START, keys, args).await().atMost(timeout());
            switch (created.code()) {
                case STARTED -> {
                    return;
                }
                case RUNNING -> throw new DeadLetterException(DeadLetterException.Reason.REDRIVE_RUNNING,
                        "redrive " + created.text(1) + " of " + dlq + " is still " + created.text(2) + "; one redrive of "
                                + "a stream runs at a time (dry runs aside): wait until it has finished, or cancel it "
                                + "with DELETE on its URL, .../redrives/" + created.text(1));
                default -> {
                    // 'changed': another start won since the pointer was read; read it again
                }
            }
        }
        throw new IllegalStateException("could not start a redrive of " + dlq + ": other redrives kept starting");
    }

    public Status status(String dlq, String id) {
        store.requireKnown(dlq);
        Map<String, String> t = hashes().hgetall(RedisKeys.redriveTask(dlq, id)).await().atMost(timeout());
        if (t == null || t.isEmpty()) {
            throw new DeadLetterException(DeadLetterException.Reason.NO_TASK, "no redrive " + id + " of " + dlq
                    + " (finished ones are kept for " + config.replay().redriveRetention() + ")");
        }
        State state = State.of(t.get("state"));
        long matched = state == State.COUNTING ? -1 : num(t, "matched");
        long moved = num(t, "moved");
        long skipped = num(t, "skipped");
        long remaining = state.finished() ? 0 : matched < 0 ? -1 : Math.max(0, matched - moved - skipped);
        return new Status(id, dlq, state.value(), Boolean.parseBoolean(t.get("dry-run")), (int) num(t, "max-per-second"),
                (int) num(t, "canary"), Double.parseDouble(t.getOrDefault("max-refail-rate", "0")), matched, moved,
                remaining, num(t, "failed"), skipped, num(t, "canary-moved"), t.getOrDefault("detail", ""),
                t.get("created-by"), instant(t.get("created-at")), instant(t.get("finished-at")));
    }

    /** Stops a task wherever it runs: its runner's next lease renewal fails. */
    public Status cancel(String dlq, String id, String actor) {
        Status s = status(dlq, id);
        if (State.of(s.state()).finished()) {
            throw new DeadLetterException(DeadLetterException.Reason.TASK_FINISHED,
                    "redrive " + id + " is already " + s.state());
        }
        finish(dlq, id, State.CANCELLED, "cancelled by " + actor);
        audit(dlq, id, "redrive-cancel", actor, "");
        return status(dlq, id);
    }

    /**
     * At start-up, and then every lease period: take over every unfinished task whose runner is
     * gone (its lease ran out), so a task whose pod died resumes on a live replica without waiting
     * for a restart.
     */
    void onStart(@Observes @Priority(20) StartupEvent event) {
        runners.submit(this::resumeAbandoned);
        vertx.setPeriodic(Math.max(1000, config.replay().redriveLease().toMillis()),
                t -> runners.submit(this::resumeAbandoned));
    }

    /** Resumes unfinished tasks whose lease has run out: what a restart does. */
    public void resumeAbandoned() {
        for (String dlq : targets.deadLetterStreams()) {
            try {
                List<String> ids = redis.sortedSet(String.class).zrange(RedisKeys.redriveTasks(dlq), 0, -1)
                        .await().atMost(timeout());
                for (String id : ids) {
                    if (!local.containsKey(id) && claim(dlq, id)) {
                        LOG.infof("resuming redrive %s of %s from its stored cursor", id, dlq);
                        launch(dlq, id);
                    }
                }
            } catch (RuntimeException e) {
                LOG.warnf("could not look for unfinished redrives of %s: %s", dlq, e.getMessage());
            }
        }
    }

    /**
     * On shutdown: stop local runners and give up their leases at once, so the next process (or
     * the restarted one) resumes them without waiting for the lease to run out.
     */
    void onStop(@Observes ShutdownEvent event) {
        releaseAll();
    }

    /** Stops this process' runners and releases their leases; their tasks stay unfinished. */
    public void releaseAll() {
        List<String> stopped = new ArrayList<>(local.keySet());
        local.values().forEach(f -> f.cancel(true));
        for (String key : stopped) {
            int sep = key.lastIndexOf('/');
            String dlq = key.substring(0, sep);
            String id = key.substring(sep + 1);
            Map<String, String> released = Map.of("lease-until", "0");
            try {
                hashes().hset(RedisKeys.redriveTask(dlq, id), released).await().atMost(timeout());
            } catch (RuntimeException e) {
                LOG.warnf("could not release redrive %s; another process takes it over after %s", id,
                        config.replay().redriveLease());
            }
        }
        local.clear();
    }

    /** True while a runner of this process works on the task. */
    public boolean runsHere(String dlq, String id) {
        return local.containsKey(dlq + "/" + id);
    }

    private void launch(String dlq, String id) {
        String localKey = dlq + "/" + id;
        local.computeIfAbsent(localKey, k -> runners.submit(() -> {
            try {
                run(dlq, id);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (RuntimeException e) {
                if (Thread.currentThread().isInterrupted() || e.getCause() instanceof InterruptedException) {
                    return; // stopped by releaseAll (shutdown): the lease is given up, another run resumes it
                }
                LOG.errorf(e, "redrive %s of %s stopped; it resumes when its lease has run out", id, dlq);
            } finally {
                local.remove(localKey);
            }
        }));
    }

    private void run(String dlq, String id) throws InterruptedException {
        String key = RedisKeys.redriveTask(dlq, id);
        if (!claim(dlq, id)) {
            return;
        }
        Map<String, String> t = hget(key);
        Spec spec = spec(t);
        State state = State.of(t.get("state"));
        String actor = t.getOrDefault("created-by", "redrive");
        if (state == State.COUNTING) {
            if (!count(dlq, id, spec)) {
                return;
            }
            if (spec.dryRun()) {
                finish(dlq, id, State.COMPLETED, "dry run: " + num(hget(key), "matched") + " entries would move");
                return;
            }
            state = spec.canary() > 0 ? State.CANARY : State.RUNNING;
            hashes().hset(key, Map.of("state", state.value())).await().atMost(timeout());
        }
        if (state == State.CANARY) {
            if (!move(dlq, id, spec, actor)) {
                return;
            }
            if (!canaryPassed(dlq, id, spec)) {
                return;
            }
            state = State.RUNNING;
            hashes().hset(key, Map.of("state", state.value())).await().atMost(timeout());
        }
        if (state == State.RUNNING && move(dlq, id, spec, actor)) {
            finish(dlq, id, State.COMPLETED, "");
            Map<String, String> done = hget(key);
            LOG.infof("redrive %s of %s completed: %d moved, %d skipped (origin not writable, or no snapshot)", id, dlq,
                    num(done, "moved"), num(done, "skipped"));
        }
    }

    /** Counts the matching entries, page by page in redrive-count.lua; false when the task stopped. */
    private boolean count(String dlq, String id, Spec spec) {
        List<String> keys = List.of(dlq, RedisKeys.redriveTask(dlq, id));
        List<String> args = new ArrayList<>(spec.filter().scriptArgs());
        args.add(identity.runner());
        args.add(Integer.toString(COUNT_PAGE));
        Lease lease = new Lease(dlq, id);
        while (true) {
            if (!lease.held()) {
                return false;
            }
            Response step = scripts.run(LuaScripts.Script.REDRIVE_COUNT, keys, args).await().atMost(timeout());
            if (stopped(step)) {
                return false;
            }
            if (step.get(1).toInteger() == 1) {
                return true;
            }
        }
    }

    /**
     * Moves matching entries from the task's cursor, one redrive-step.lua call per page, which also
     * advances the cursor; in the canary phase the script stops at the canary's size. With a pace,
     * one step at a time, each as big and as late as {@link Pace} says; without one, two steps are in flight, so Redis never waits for the service between them (a step that
     * finds nothing left to do is harmless). False when the task stopped (cancelled, or another
     * runner took it over).
     */
    private boolean move(String dlq, String id, Spec spec, String actor) throws InterruptedException {
        String key = RedisKeys.redriveTask(dlq, id);
        List<String> keys = new ArrayList<>(List.of(dlq, RedisKeys.deadLetterStats(dlq), RedisKeys.audit(dlq), key,
                RedisKeys.redriveCanary(dlq, id), RedisKeys.replayed(dlq), RedisKeys.replayedAt(dlq)));
        keys.addAll(replays.writableFrom(dlq));
        Pace pace = new Pace(spec.maxPerSecond());
        int limit = pace.perStep(PAGE);
        int depth = pace.limited() ? 1 : 2;
        ArrayDeque<CompletableFuture<Response>> inFlight = new ArrayDeque<>();
        long started = System.nanoTime();
        Lease lease = new Lease(dlq, id);
        long moved = 0;
        try {
            while (true) {
                while (inFlight.size() < depth) {
                    if (!lease.held()) {
                        return false;
                    }
                    long wait = pace.waitNanos(moved, System.nanoTime() - started);
                    if (wait > 0) {
                        Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                    }
                    inFlight.add(step(keys, spec, id, actor, limit).subscribeAsCompletionStage());
                }
                Response step = inFlight.poll().get(timeout().toMillis(), TimeUnit.MILLISECONDS);
                if (stopped(step)) {
                    return false;
                }
                moved += counted(dlq, step);
                if (step.get(1).toInteger() == 1) {
                    while (!inFlight.isEmpty()) {
                        Response late = inFlight.poll().get(timeout().toMillis(), TimeUnit.MILLISECONDS);
                        if (!stopped(late)) {
                            counted(dlq, late);
                        }
                    }
                    return true;
                }
            }
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("redrive " + id + " of " + dlq + ": " + e.getMessage(), e);
        }
    }

    private Uni<Response> step(List<String> keys, Spec spec, String id, String actor, int limit) {
        List<String> args = new ArrayList<>(spec.filter().scriptArgs());
        args.addAll(List.of(identity.runner(), actor, now().toString(), "redrive " + id, id, Integer.toString(PAGE),
                Integer.toString(limit)));
        return scripts.run(LuaScripts.Script.REDRIVE_STEP, keys, args);
    }

    private long counted(String dlq, Response step) {
        long n = step.get(2).toLong();
        if (n > 0) {
            metrics.replayed(dlq, n);
        }
        return n;
    }

    /**
     * The runner's hold on a task, renewed at most twice a second: soon enough for the lease, and
     * how a cancel or a takeover is noticed (each step also refuses to run for a runner that no
     * longer holds the task).
     */
    private final class Lease {
        private final String dlq;
        private final String id;
        private long renewed;

        Lease(String dlq, String id) {
            this.dlq = dlq;
            this.id = id;
            this.renewed = System.nanoTime() - RENEW_EVERY_NANOS - 1;
        }

        boolean held() {
            if (System.nanoTime() - renewed <= RENEW_EVERY_NANOS) {
                return true;
            }
            if (!claim(dlq, id)) {
                return false;
            }
            renewed = System.nanoTime();
            return true;
        }
    }

    /** Whether a redrive-count.lua or redrive-step.lua reply says the runner no longer holds the task. */
    private static boolean stopped(Response step) {
        return ScriptReply.of(LuaScripts.Script.REDRIVE_STEP, step).code() == ScriptReply.Code.STOPPED;
    }

    /**
     * Waits until every canary job is done or parked again, then compares the share that came
     * back with the task's limit. False when the task stopped (aborted, cancelled, lost lease).
     */
    private boolean canaryPassed(String dlq, String id, Spec spec) throws InterruptedException {
        String key = RedisKeys.redriveTask(dlq, id);
        List<String> canary = redis.list(String.class).lrange(RedisKeys.redriveCanary(dlq, id), 0, -1)
                .await().atMost(timeout());
        long deadline = System.nanoTime() + config.replay().canaryTimeout().toNanos();
        while (!canary.stream().allMatch(this::settled)) {
            if (System.nanoTime() > deadline) {
                finish(dlq, id, State.ABORTED, "the canary's jobs did not finish within " + config.replay().canaryTimeout());
                return false;
            }
            if (!claim(dlq, id)) {
                return false;
            }
            Thread.sleep(CANARY_POLL.toMillis());
        }
        Map<String, String> t = hget(key);
        long moved = num(t, "canary-moved");
        long failed = num(t, "failed");
        double rate = moved == 0 ? 0 : (double) failed / moved;
        if (rate > spec.maxRefailRate()) {
            finish(dlq, id, State.ABORTED, String.format("canary: %d of %d jobs came back (%.0f%% > %.0f%%); the rest "
                    + "stay parked", failed, moved, rate * 100, spec.maxRefailRate() * 100));
            LOG.warnf("redrive %s of %s aborted after its canary: %d of %d jobs came back", id, dlq, failed, moved);
            return false;
        }
        return true;
    }

    /** A replayed job is settled once its queue's group has delivered it and it is no longer pending. */
    private boolean settled(String streamAndId) {
        int sep = streamAndId.lastIndexOf(' ');
        String stream = streamAndId.substring(0, sep);
        String id = streamAndId.substring(sep + 1);
        QueueSpec queue = targets.queueOf(stream);
        if (queue == null) {
            return true; // no group of ours reads it: nothing to wait for
        }
        Response pending = redis.execute("XPENDING", stream, queue.group(), id, id, "1").await().atMost(timeout());
        if (pending.size() > 0) {
            return false;
        }
        Response groups = redis.execute("XINFO", "GROUPS", stream).await().atMost(timeout());
        for (Response g : groups) {
            Map<String, Response> info = StreamAccess.asMap(g);
            if (queue.group().equals(info.get("name").toString())) {
                return compare(info.get("last-delivered-id").toString(), id) >= 0;
            }
        }
        return false;
    }

    private boolean claim(String dlq, String id) {
        Response r = scripts.run(LuaScripts.Script.REDRIVE_CLAIM, List.of(RedisKeys.redriveTask(dlq, id)),
                List.of(identity.runner(), Long.toString(clock.millis()), Long.toString(config.replay().redriveLease().toMillis())))
                .await().atMost(timeout());
        return r.toInteger() == 1;
    }

    private void finish(String dlq, String id, State state, String detail) {
        String key = RedisKeys.redriveTask(dlq, id);
        Map<String, String> end = new HashMap<>();
        end.put("state", state.value());
        end.put("finished-at", now().toString());
        end.put("detail", detail);
        end.put("lease-until", "0");
        hashes().hset(key, end).await().atMost(timeout());
        long ttl = config.replay().redriveRetention().toSeconds();
        redis.key(String.class).expire(key, ttl).await().atMost(timeout());
        redis.key(String.class).expire(RedisKeys.redriveCanary(dlq, id), ttl).await().atMost(timeout());
    }

    private void audit(String dlq, String id, String action, String actor, String note) {
        Map<String, String> record = new HashMap<>();
        record.put("action", action);
        record.put("actor", actor);
        record.put("at", now().toString());
        record.put("note", note);
        record.put("dlq", dlq);
        record.put("task", id);
        redis.stream(String.class, String.class, String.class).xadd(RedisKeys.audit(dlq), record).await().atMost(timeout());
    }

    private Map<String, String> hget(String key) {
        return hashes().hgetall(key).await().atMost(timeout());
    }

    private Spec spec(Map<String, String> t) {
        try {
            return new Spec(mapper.readValue(t.get("filter"), EntryFilter.class), (int) num(t, "max-per-second"),
                    Boolean.parseBoolean(t.get("dry-run")), (int) num(t, "canary"),
                    Double.parseDouble(t.getOrDefault("max-refail-rate", "0")), t.get("note"));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("unreadable filter of redrive " + t.get("id"), e);
        }
    }

    private String json(EntryFilter filter) {
        try {
            return mapper.writeValueAsString(filter);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MILLIS);
    }

    private Duration timeout() {
        return config.redisTimeout();
    }

    private static Instant instant(String s) {
        return s == null || s.isEmpty() ? null : Instant.parse(s);
    }

    private static long num(Map<String, String> t, String field) {
        try {
            return Long.parseLong(t.getOrDefault(field, "0"));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    static int compare(String a, String b) {
        long[] x = parts(a);
        long[] y = parts(b);
        int c = Long.compare(x[0], y[0]);
        return c != 0 ? c : Long.compare(x[1], y[1]);
    }

    private static long[] parts(String id) {
        int dash = id.indexOf('-');
        return dash < 0 ? new long[] { Long.parseLong(id), 0 }
                : new long[] { Long.parseLong(id.substring(0, dash)), Long.parseLong(id.substring(dash + 1)) };
    }
}
