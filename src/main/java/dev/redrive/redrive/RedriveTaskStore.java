package dev.redrive.redrive;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.redrive.config.RedriveConfig;
import dev.redrive.deadletter.DeadLetterException;
import dev.redrive.deadletter.EntryFilter;
import dev.redrive.redis.AuditTrail;
import dev.redrive.redis.LuaScripts;
import dev.redrive.redis.RedisKeys;
import dev.redrive.redis.ScriptReply;
import dev.redrive.redis.TaskHashes;

/**
 * Bulk redrive tasks in Redis, as {@link RedriveTask}s: create one, read it, move it to another
 * state, claim and release its lease, and audit what an operator did to it. Every method blocks
 * (through {@link RedisWait}, bounded by redrive.redis-timeout).
 */
@ApplicationScoped
class RedriveTaskStore {

    /** A start that keeps losing races to other starts gives up rather than loop. */
    private static final int START_ATTEMPTS = 10;

    @Inject
    TaskHashes hashes;

    @Inject
    LuaScripts scripts;

    @Inject
    AuditTrail auditTrail;

    @Inject
    RedisWait wait;

    @Inject
    RedriveConfig config;

    @Inject
    ObjectMapper mapper;

    @Inject
    Clock clock;

    /**
     * Stores the new task unless a real redrive of the same stream is unfinished: two at once
     * would each count what the other moves. redrive-start.lua checks, creates and audits it in one step.
     */
    void create(RedriveTask task) {
        ScriptReply created = start(task, LuaScripts.Script.REDRIVE_START, List.of(RedisKeys.audit(task.dlq())),
                List.of(task.dryRun() ? "1" : "0"));
        if (created.code() == ScriptReply.Code.WRONG_TYPE) {
            throw new DeadLetterException(DeadLetterException.Reason.WRONG_TYPE, "could not start a redrive of "
                    + task.dlq() + ": " + created.text(1) + " (nothing written)");
        }
    }

    /**
     * Approves the proposal and stores its task in one step (proposal-approve.lua), by the rule
     * {@link #create} follows; the script's answer when the proposal may not be approved.
     */
    ScriptReply createApproved(RedriveTask task, String proposalKey, String approver, String approverKey,
            String note) {
        return start(task, LuaScripts.Script.PROPOSAL_APPROVE,
                List.of(proposalKey, RedisKeys.waitingProposals(task.dlq()), RedisKeys.audit(task.dlq())),
                List.of(approver, approverKey, note));
    }

    /**
     * Runs a script that starts a task (lib/start-task.lua) until it answers other than 'changed':
     * the script needs the running task's key up front, so a start that raced another reads the
     * pointer again. Its KEYS are {@code keysBefore} then the four of lib/start-task.lua, its ARGV
     * the seen id, the new id and now, then {@code argsBefore}, then the task's fields.
     */
    private ScriptReply start(RedriveTask task, LuaScripts.Script script, List<String> keysBefore,
            List<String> argsBefore) {
        String dlq = task.dlq();
        String key = RedisKeys.redriveTask(dlq, task.id());
        for (int attempt = 0; attempt < START_ATTEMPTS; attempt++) {
            String seen = task.dryRun() ? null : wait.on(hashes.running(dlq));
            List<String> keys = new ArrayList<>(keysBefore);
            keys.addAll(List.of(RedisKeys.redriveRunning(dlq), seen == null ? key : RedisKeys.redriveTask(dlq, seen), key,
                    RedisKeys.redriveTasks(dlq)));
            List<String> args = new ArrayList<>(List.of(seen == null ? "" : seen, task.id(), Long.toString(clock.millis())));
            args.addAll(argsBefore);
            task.toHash().forEach((name, value) -> {
                args.add(name);
                args.add(value);
            });
            ScriptReply created = wait.on(scripts.call(script, keys, args));
            switch (created.code()) {
                case CHANGED -> {
                    // another start won since the pointer was read; read it again
                }
                case RUNNING -> throw new DeadLetterException(DeadLetterException.Reason.REDRIVE_RUNNING,
                        "redrive " + created.text(1) + " of " + dlq + " is still " + created.text(2) + "; one redrive of "
                                + "a stream runs at a time (dry runs aside): wait until it has finished, or cancel it "
                                + "with DELETE on its URL, .../redrives/" + created.text(1));
                default -> {
                    return created;
                }
            }
        }
        throw new IllegalStateException("could not start a redrive of " + dlq + ": other redrives kept starting");
    }

    Optional<RedriveTask> find(String dlq, String id) {
        Map<String, String> hash = wait.on(hashes.read(dlq, id));
        return hash == null || hash.isEmpty() ? Optional.empty() : Optional.of(RedriveTask.fromHash(dlq, id, hash));
    }

    /** The task, or the API's 404 (a finished task is forgotten after redrive.replay.redrive-retention). */
    RedriveTask get(String dlq, String id) {
        return find(dlq, id).orElseThrow(() -> new DeadLetterException(DeadLetterException.Reason.NO_TASK, "no redrive "
                + id + " of " + dlq + " (finished ones are kept for " + config.replay().redriveRetention() + ")"));
    }

    /**
     * The runner's move from one working state to the next (the table is {@link RedriveState#next});
     * false, with nothing written, when the task has left the state the runner saw (cancelled).
     */
    boolean advance(RedriveTask task, RedriveState to) {
        return move(task, to, RedriveTask.moved(to), "");
    }

    /**
     * Ends the task, gives up its lease, and lets its hash and canary list expire after the
     * retention; false, with nothing written, when the task has left the state {@code task} was
     * read in (another process cancelled or finished it first).
     */
    boolean finish(RedriveTask task, RedriveState end, String detail) {
        return move(task, end, RedriveTask.finish(end, detail, now()),
                Long.toString(config.replay().redriveRetention().toMillis()));
    }

    /**
     * One move of the task's state machine, compared and set in Redis (redrive-move.lua): a cancel
     * and a runner's move can race, and neither may undo the other.
     */
    private boolean move(RedriveTask task, RedriveState to, Map<String, String> fields, String keepMillis) {
        requireMove(task.state(), to);
        List<String> args = new ArrayList<>(List.of(task.state().wire, to.wire, keepMillis));
        fields.forEach((name, value) -> {
            args.add(name);
            args.add(value);
        });
        ScriptReply moved = wait.on(scripts.call(LuaScripts.Script.REDRIVE_MOVE,
                List.of(RedisKeys.redriveTask(task.dlq(), task.id()), RedisKeys.redriveCanary(task.dlq(), task.id())),
                args));
        return moved.code() == ScriptReply.Code.MOVED;
    }

    /**
     * Takes or renews the lease for {@code runner} (redrive-claim.lua, on Redis' clock: runners
     * whose clocks disagree still agree on whose lease ran out); false when the task is finished or
     * another live runner holds it.
     */
    boolean claim(String dlq, String id, String runner) {
        return wait.on(scripts.run(LuaScripts.Script.REDRIVE_CLAIM,
                List.of(RedisKeys.redriveTask(dlq, id), RedisKeys.redriveTasks(dlq)),
                List.of(runner, Long.toString(config.replay().redriveLease().toMillis()), id))).toInteger() == 1;
    }

    /** Gives the lease up; the task stays as it is, for the next runner to claim at once. */
    void release(String dlq, String id) {
        wait.on(hashes.write(dlq, id, RedriveTask.released()));
    }

    /** The stream's unfinished tasks, oldest first, and any that finished since the last claim (which drops them). */
    List<String> ids(String dlq) {
        return wait.on(hashes.ids(dlq));
    }

    /** The canary's jobs as {@code "<origin stream> <new entry id>"}. */
    List<String> canaryJobs(RedriveTask task) {
        return wait.on(hashes.canary(task.dlq(), task.id()));
    }

    /** An operator's act on a task, in the stream's audit trail (each move is audited by redrive-step.lua). */
    void audit(String dlq, String id, String action, String actor, String note) {
        Map<String, String> record = new HashMap<>();
        record.put("task", id);
        record.put("action", action);
        record.put("actor", actor);
        record.put("at", now().toString());
        record.put("note", note);
        record.put("dlq", dlq);
        wait.on(auditTrail.append(dlq, record));
    }

    RedriveSpec spec(RedriveTask task) {
        return new RedriveSpec(filter(task.filter(), "redrive " + task.id()), task.maxPerSecond(), task.dryRun(),
                task.canary(), task.maxRefailRate(), task.note(), RedrivePatch.fromStored(task.patch()));
    }

    /** A filter as {@link #json} wrote it; {@code of} names whose it is, should it not read. */
    EntryFilter filter(String json, String of) {
        try {
            return mapper.readValue(json, EntryFilter.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("unreadable filter of " + of, e);
        }
    }

    String json(EntryFilter filter) {
        try {
            return mapper.writeValueAsString(filter);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MILLIS);
    }

    private static void requireMove(RedriveState from, RedriveState to) {
        if (!from.canMoveTo(to)) {
            throw new IllegalStateException("a redrive does not move from " + from.wire + " to " + to.wire);
        }
    }
}
