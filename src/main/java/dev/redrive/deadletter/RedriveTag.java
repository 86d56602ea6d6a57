package dev.redrive.deadletter;

import java.util.Optional;

import dev.redrive.job.Job;
import dev.redrive.job.ReservedField;
import dev.redrive.redis.RedisKeys;

/**
 * The {@link ReservedField#REDRIVE_TASK} field a bulk redrive puts on each job it sends back
 * ({@code <dead-letter stream>/<task id>}). Any producer can write the field, so it is only a hint
 * of which task to look at: dead-letter.lua counts a job parked again against the task only when
 * redrive's ledger ({@link RedisKeys#replayed}) says the task sent that very entry.
 */
public final class RedriveTag {

    private RedriveTag() {
    }

    public static String value(String deadLetters, String taskId) {
        return deadLetters + "/" + taskId;
    }

    /** The task hash to count a re-parked job against, or null when the job came from no redrive. */
    public static String taskKey(Job job) {
        Optional<String> tag = job.text(ReservedField.REDRIVE_TASK.wireName());
        if (tag.isEmpty()) {
            return null;
        }
        int slash = tag.get().lastIndexOf('/');
        if (slash <= 0 || slash == tag.get().length() - 1) {
            return null;
        }
        return RedisKeys.redriveTask(tag.get().substring(0, slash), tag.get().substring(slash + 1));
    }
}
