package dev.redrive.redrive;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.redrive.config.ProcessIdentity;
import dev.redrive.deadletter.DeadLetterException;
import dev.redrive.deadletter.DeadLetterMetrics;
import dev.redrive.deadletter.Replays;
import dev.redrive.redis.LuaScripts;
import dev.redrive.redis.RedisKeys;
import dev.redrive.redis.Replication;
import dev.redrive.redis.ScriptReply;
import dev.redrive.time.Timers;
import dev.redrive.trace.ReplaySpan;
import dev.redrive.trace.Tracing;
import io.vertx.mutiny.redis.client.Response;

/**
 * A task's work in Redis, one script call a step: redrive-count.lua counts a page of what matches,
 * redrive-step.lua moves a page and advances the cursor and the counters in the same atomic step,
 * and only for the runner that holds the task. After a crash or a takeover the next runner starts
 * exactly where the last step ended, so nothing moves twice and nothing is skipped.
 */
@ApplicationScoped
class TaskSteps {

    /** Entries one step examines at most: a few milliseconds of Redis time per script call. */
    static final int PAGE = 200;
    static final int COUNT_PAGE = 1000;

    @Inject
    LuaScripts scripts;

    @Inject
    Replays replays;

    @Inject
    Replication replication;

    @Inject
    RedriveTaskStore store;

    @Inject
    DeadLetterMetrics metrics;

    @Inject
    RedisWait wait;

    @Inject
    ProcessIdentity identity;

    /** The pace is measured on the monotonic clock: a wall clock set back mid-step would make it wait that long. */
    @Inject
    Timers time;

    @Inject
    Tracing tracing;

    /** Counts the matching entries, page by page; false when the task stopped. */
    boolean count(RedriveTask task, RedriveSpec spec, Lease lease) {
        List<String> keys = List.of(task.dlq(), RedisKeys.redriveTask(task.dlq(), task.id()));
        List<String> args = new ArrayList<>(spec.filter().scriptArgs());
        args.add(identity.runner());
        args.add(Integer.toString(COUNT_PAGE));
        while (true) {
            if (!lease.held()) {
                return false;
            }
            Response step = wait.on(scripts.run(LuaScripts.Script.REDRIVE_COUNT, keys, args));
            if (stopped(step)) {
                return false;
            }
            if (done(step)) {
                return true;
            }
        }
    }

    /**
     * Moves matching entries from the task's cursor; in the canary phase the script stops at the
     * canary's size. With a pace, one step at a time, each as big and as late as {@link Pace} says;
     * without one, two steps are in flight, so Redis never waits for the service between them (a
     * step that finds nothing left to do is harmless). False when the task stopped (cancelled,
     * taken over by another runner, or this run was stopped). With tracing on each step is a span
     * ({@code redrive <dlq>}) whose traceparent the moved entries carry, linked to the last attempts
     * of the jobs it moved.
     */
    boolean move(RedriveTask task, RedriveSpec spec, Lease lease, Stop stop) throws InterruptedException {
        String dlq = task.dlq();
        List<String> keys = new ArrayList<>(List.of(dlq, RedisKeys.deadLetterStats(dlq), RedisKeys.audit(dlq),
                RedisKeys.redriveTask(dlq, task.id()), RedisKeys.redriveCanary(dlq, task.id()), RedisKeys.replayed(dlq),
                RedisKeys.replayedAt(dlq)));
        keys.addAll(replays.writableFrom(dlq));
        Pace pace = spec.pace();
        int limit = pace.perStep(PAGE);
        int depth = pace.limited() ? 1 : 2;
        ArrayDeque<CompletableFuture<Response>> inFlight = new ArrayDeque<>();
        LinkedList<ReplaySpan> spans = new LinkedList<>(); // one per step in flight; null ones with tracing off
        long started = time.elapsedNanos();
        long moved = 0;
        while (true) {
            while (inFlight.size() < depth) {
                if (!lease.held()
                        || !stop.pause(pace.waitNanos(moved, time.elapsedNanos() - started))) {
                    return false;
                }
                ReplaySpan span = tracing.redriveStep(dlq, task.id(), task.actor());
                spans.add(span);
                inFlight.add(wait.send(replication.run(LuaScripts.Script.REDRIVE_STEP, keys, stepArgs(task, spec, limit,
                        span)).map(TaskSteps::replicated)));
            }
            Response step = wait.on(inFlight.poll());
            if (stopped(step)) {
                traced(spans.poll(), null);
                return false;
            }
            moved += counted(dlq, step, spans.poll());
            if (done(step)) {
                while (!inFlight.isEmpty()) {
                    Response late = wait.on(inFlight.poll());
                    if (!stopped(late)) {
                        counted(dlq, late, spans.poll());
                    } else {
                        traced(spans.poll(), null);
                    }
                }
                return true;
            }
        }
    }

    /**
     * A step's reply once enough replicas have its moves (redrive.redis.wait-replicas); otherwise
     * the run stops as on a Redis failure, and the task resumes from the step's cursor once its
     * lease runs out: the moves stay, the next ones wait for the replicas.
     */
    private static Response replicated(Replication.Written written) {
        Response step = written.reply();
        if (!written.confirmed() && !stopped(step) && step.get(2).toLong() > 0) {
            throw DeadLetterException.notReplicated("a redrive step moved " + step.get(2).toLong() + " dead letters", written);
        }
        return step;
    }

    private List<String> stepArgs(RedriveTask task, RedriveSpec spec, int limit, ReplaySpan span) {
        List<String> args = new ArrayList<>(spec.filter().scriptArgs());
        args.addAll(List.of(identity.runner(), task.actor(), store.now().toString(), "redrive " + task.id(), task.id(),
                Integer.toString(PAGE), Integer.toString(limit), span == null ? "" : span.traceparent()));
        return args;
    }

    private long counted(String dlq, Response step, ReplaySpan span) {
        long n = step.get(2).toLong();
        if (n > 0) {
            metrics.replayed(dlq, n);
        }
        traced(span, step);
        return n;
    }

    /** Ends a step's span, linked to the last attempts of the jobs it moved (none for a stopped step). */
    private static void traced(ReplaySpan span, Response step) {
        if (span == null) {
            return;
        }
        long moved = 0;
        if (step != null) {
            moved = step.get(2).toLong();
            if (step.size() > 3) {
                step.get(3).forEach(trace -> span.linkTo(trace.toString()));
            }
        }
        span.end(moved);
    }

    /** Whether a redrive-count.lua or redrive-step.lua reply says the runner no longer holds the task. */
    private static boolean stopped(Response step) {
        return ScriptReply.of(LuaScripts.Script.REDRIVE_STEP, step).code() == ScriptReply.Code.STOPPED;
    }

    /** Whether the step reached the task's end (or, in the canary phase, filled the canary). */
    private static boolean done(Response step) {
        return step.get(1).toInteger() == 1;
    }
}
