package dev.redrive.deadletter;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import dev.redrive.config.QueueSpec;
import dev.redrive.config.RedriveConfig;
import dev.redrive.job.Job;
import dev.redrive.redis.DeadLetterScripts;
import dev.redrive.redis.RedisTopology;
import dev.redrive.redis.ScriptReply;
import dev.redrive.retry.Failure;
import dev.redrive.retry.FailureKind;
import dev.redrive.time.Timers;
import io.smallrye.mutiny.Uni;

/**
 * The write side of dead letters: parks jobs (dead-letter.lua: the record in, the job acked, in one
 * step), and the log line that tells an operator what to do next. {@link DeadLetterReader} is the
 * read side; {@link Replays} sends one back or discards it, and the redrive package moves them back
 * in bulk.
 */
@ApplicationScoped
public class DeadLetterWriter {

    @Inject
    DeadLetterScripts scripts;

    @Inject
    Clock clock;

    @Inject
    RedisTopology topology;

    @Inject
    DeadLetterMetrics metrics;

    @Inject
    RedriveConfig config;

    private static final Logger LOG = Logger.getLogger(DeadLetterWriter.class);
    /** Why a call failed as a whole: Redis refused it (out of memory, say) or did not answer. */
    private static final String REDIS_ERROR = "redis-error";
    /** Why a job stays pending instead of being parked: dead-letter.lua's refusal, or {@link #REDIS_ERROR}. */
    private static final List<String> UNPARKED_REASONS = List.of(ScriptReply.Code.WRONG_TYPE.wire, REDIS_ERROR);

    private static final long LOG_WINDOW_SECONDS = 10;
    private final ParkLog log = new ParkLog();

    /** Summarised park lines are reported when their window closes, whether or not more parks come. */
    void startLogWindows(@jakarta.enterprise.event.Observes io.quarkus.runtime.StartupEvent event, Timers time) {
        time.every(Duration.ofSeconds(LOG_WINDOW_SECONDS), () -> log.closeWindow(LOG_WINDOW_SECONDS));
    }

    /**
     * Shows the queue's count of jobs that could not be parked at zero before the first one: a
     * counter that first appears at 1 shows Prometheus no increase, so the alert would miss it.
     */
    public void expectParks(String queue) {
        metrics.expectUnparked(queue, UNPARKED_REASONS);
    }

    /**
     * A queue's job to park: the consumer that held it, why ({@code failureKind}, {@code failure}),
     * when its last attempt started (null: never attempted here) and that attempt's traceparent
     * (null when tracing is off).
     */
    public record ToPark(Job job, String consumer, FailureKind failureKind, Failure failure,
            Instant lastAttemptAt, String traceparent) {
    }

    /**
     * Parks jobs of one queue together (those that failed in the same event-loop turn), as
     * {@link #parkAll} does: the call names each redrive task the jobs' fields name once, and the
     * script counts a job against its task only if redrive's ledger confirms the task sent it.
     */
    public Uni<List<Parked>> parkJobs(QueueSpec queue, List<ToPark> jobs) {
        Instant now = now();
        List<DeadLetterRecord> records = new ArrayList<>(jobs.size());
        Set<String> tasks = new LinkedHashSet<>();
        for (ToPark p : jobs) {
            DeadLetterRecord record = DeadLetterRecord.of(p.job(), queue.group(), p.consumer(), p.failureKind(),
                    p.failure(), p.lastAttemptAt(), now);
            records.add(p.traceparent() == null ? record : record.withLastAttemptTrace(p.traceparent()));
            String task = redriveTask(p.job(), queue.stream());
            if (task != null) {
                tasks.add(task);
            }
        }
        return parkAll(queue.name(), queue.deadLetters(), records, tasks);
    }

    /**
     * The redrive task the job's {@code redrive-task} field names, when one script may touch it
     * with the stream; null for a job without one. The field is only a hint: dead-letter.lua counts
     * the job against the task only if redrive's own ledger says that task sent it.
     */
    private String redriveTask(Job job, String stream) {
        String key = RedriveTag.taskKey(job);
        return key != null && topology.oneScript(stream, key) ? key : null;
    }

    /**
     * What became of one job: parked as {@code id} (null when not parked) with {@code record}, the
     * record it was given or, when its entry had been trimmed, that record as missing.
     */
    public record Parked(DeadLetterRecord record, String id) {
    }

    /** Parks a pending entry of any group, with a record built by the caller: its id, or null when not parked. */
    public Uni<String> park(String queue, String deadLetters, DeadLetterRecord record) {
        return parkAll(queue, deadLetters, List.of(record), Set.of()).map(outcomes -> outcomes.get(0).id());
    }

    /**
     * Copies jobs of one stream and group with their records into a dead-letter stream and acks
     * them: each job in one atomic step with its record (dead-letter.lua). One outcome per record:
     * parked, no longer pending (already acked or parked by someone else: never parked twice), or
     * refused. A job whose stream entry was trimmed is parked in a second call with its record as
     * missing ({@link DeadLetterRecord#asMissing}): the script writes nothing for it in the first,
     * so it is never acked without a record that says what happened. A refused job, and every job of a call Redis failed (unless Redis ran it and only
     * the answer was lost), had nothing written: it stays pending, which is logged and counted
     * here, so callers need not handle it.
     *
     * @param queue       the queue (or watch) the jobs belong to, for the log and the metric
     * @param redriveTasks the redrive tasks the jobs' fields name ({@link #redriveTask}), each once
     */
    public Uni<List<Parked>> parkAll(String queue, String deadLetters, List<DeadLetterRecord> records,
            Set<String> redriveTasks) {
        return run(deadLetters, records, redriveTasks).flatMap(outcomes -> {
            List<DeadLetterRecord> parkedAs = new ArrayList<>(records);
            List<Integer> trimmed = new ArrayList<>();
            for (int i = 0; i < outcomes.size(); i++) {
                if (outcomes.get(i).trimmed()) {
                    trimmed.add(i);
                    parkedAs.set(i, records.get(i).asMissing());
                }
            }
            if (trimmed.isEmpty()) {
                return Uni.createFrom().item(report(queue, deadLetters, parkedAs, outcomes));
            }
            return run(deadLetters, trimmed.stream().map(parkedAs::get).toList(), redriveTasks).map(again -> {
                List<DeadLetterScripts.Parked> all = new ArrayList<>(outcomes);
                for (int k = 0; k < trimmed.size(); k++) {
                    all.set(trimmed.get(k), again.get(k));
                }
                return report(queue, deadLetters, parkedAs, all);
            });
        });
    }

    private Uni<List<DeadLetterScripts.Parked>> run(String deadLetters, List<DeadLetterRecord> records,
            Set<String> redriveTasks) {
        DeadLetterRecord first = records.get(0);
        List<DeadLetterScripts.Park> parks = records.stream().map(DeadLetterRecord::toPark).toList();
        long forgetBefore = clock.millis() - config.replay().redriveRetention().toMillis();
        return scripts.park(first.originStream(), first.group(), deadLetters, parks, redriveTasks, forgetBefore)
                .onFailure().recoverWithItem(e -> records.stream()
                        .map(r -> new DeadLetterScripts.Parked(null, REDIS_ERROR, String.valueOf(e.getMessage()))).toList());
    }

    /** Logs each job parked, and each that could not be (it stays pending); one outcome per record. */
    private List<Parked> report(String queue, String deadLetters, List<DeadLetterRecord> records,
            List<DeadLetterScripts.Parked> outcomes) {
        List<Parked> parked = new ArrayList<>(outcomes.size());
        for (int i = 0; i < outcomes.size(); i++) {
            DeadLetterScripts.Parked outcome = outcomes.get(i);
            if (outcome.id() != null) {
                log.parked(deadLetters, records.get(i), outcome.id());
            } else if (outcome.refused()) {
                unparked(queue, deadLetters, records.get(i), outcome);
            }
            parked.add(new Parked(records.get(i), outcome.id()));
        }
        return parked;
    }

    /**
     * Forgets the replay ledger's entries for replayed jobs of {@code stream} that are done: only a
     * job parked again needs its entry, and a large redrive would otherwise leave one per moved job
     * until later parks prune them.
     */
    public Uni<Void> forgetReplays(String deadLetters, String stream, List<String> ids) {
        return scripts.forgetReplays(deadLetters, stream, ids);
    }

    private void unparked(String queue, String deadLetters, DeadLetterRecord record, DeadLetterScripts.Parked outcome) {
        metrics.unparked(queue, outcome.reason());
        String written = REDIS_ERROR.equals(outcome.reason())
                ? "unless Redis ran the script before its answer was lost, nothing was written"
                : "nothing was written";
        LOG.errorf("could not park job %s/%s in %s (%s: %s); %s: it stays pending in group %s, and is parked when "
                + "it is next delivered or found over its limit, if the cause is gone by then; it is never acked "
                + "without its record", record.originStream(), record.originId(), deadLetters, outcome.reason(),
                outcome.detail(), written, record.group());
    }

    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MILLIS);
    }
}
