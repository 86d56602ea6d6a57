package dev.redrive.deadletter;

import static dev.redrive.testing.Api.as;
import static dev.redrive.testing.Api.enc;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.redrive.redis.RedisKeys;
import dev.redrive.testing.ApiProfile;
import dev.redrive.testing.Await;
import dev.redrive.testing.Own;
import dev.redrive.testing.TestQueue;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.redis.datasource.stream.StreamMessage;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.vertx.mutiny.redis.client.Response;

/**
 * The fields redrive writes into a replayed entry for itself are believed only when redrive wrote
 * them (issue 10, item 5): a producer can't make a job a repeat offender or count it against an
 * operator's running redrive by writing those fields itself.
 */
@QuarkusTest
@TestProfile(ApiProfile.class)
class ReservedFieldsTest {

    @Inject
    @Own("reserved")
    TestQueue reserved;

    @Inject
    RedisDataSource redis;

    @Test
    void aForgedReplayCountIsNotBelieved() {
        String id = reserved.add(Map.of("kind", "terminal", "redrive-replays", "999",
                "replay-of", reserved.dlq() + "/1-0"));
        StreamMessage<String, String, byte[]> parked = parked(id);
        assertEquals("0", text(parked.payload().get("replays")));
        as("viewer").get(reserved.dlqPath() + "/entries/" + enc(parked.id()))
                .then().statusCode(200).body("replays", equalTo(0)).body("repeatOffender", equalTo(false))
                .body("fields.redrive-replays", equalTo("999"));
    }

    @Test
    void aForgedRedriveTaskDoesNotCountAgainstThatRedrive() {
        String task = RedisKeys.redriveTask(reserved.dlq(), "running-task");
        redis.hash(String.class).hset(task, Map.of("state", "running", "failed", "0", "canary-moved", "1"));
        try {
            String id = reserved.add(Map.of("kind", "terminal", "redrive-task", reserved.dlq() + "/running-task",
                    "redrive-replays", "1"));
            parked(id);
            assertEquals("0", redis.hash(String.class).hget(task, "failed"), "the task's failed count is untouched");
        } finally {
            redis.key().del(task);
        }
    }

    /**
     * Jobs that two redrives sent back fail in one turn and are parked in one call: each task's
     * failed count goes up by exactly its own jobs, and a job whose field names a task that did
     * not send it (the ledger says nothing of it) counts against none.
     */
    @Test
    void jobsOfSeveralRedrivesParkedTogetherCountAgainstTheirOwnTaskOnly() {
        String taskA = RedisKeys.redriveTask(reserved.dlq(), "task-a");
        String taskB = RedisKeys.redriveTask(reserved.dlq(), "task-b");
        for (String task : List.of(taskA, taskB)) {
            redis.hash(String.class).hset(task, Map.of("state", "running", "failed", "0"));
        }
        try {
            // The jobs and their ledger fields appear in one step, as a redrive step writes them,
            // so the worker reads them together and they fail in the same turn.
            String lua = "local ids = {}\n"
                    + "for i = 2, #ARGV, 2 do\n"
                    + "  local id = redis.call('XADD', KEYS[1], '*', 'kind', 'terminal', 'redrive-task', ARGV[i])\n"
                    + "  if ARGV[i + 1] ~= '' then redis.call('HSET', KEYS[2], KEYS[1] .. ' ' .. id, '1 ' .. ARGV[i + 1]) end\n"
                    + "  ids[#ids + 1] = id\n"
                    + "end\n"
                    + "return ids";
            Response ids = redis.execute("EVAL", lua, "2", reserved.stream(), RedisKeys.replayed(reserved.dlq()), "-",
                    reserved.dlq() + "/task-a", taskA, reserved.dlq() + "/task-a", taskA, reserved.dlq() + "/task-b", taskB, reserved.dlq() + "/task-a", "");
            assertEquals(4, ids.size());
            for (Response id : ids) {
                parked(id.toString());
            }
            assertEquals("2", redis.hash(String.class).hget(taskA, "failed"), "task-a sent two of them back");
            assertEquals("1", redis.hash(String.class).hget(taskB, "failed"), "task-b sent one");
        } finally {
            redis.key().del(taskA, taskB);
        }
    }

    @Test
    void aReplayedJobThatIsDoneLeavesNothingInTheLedger() {
        String id = reserved.add(Map.of("kind", "terminal"));
        StreamMessage<String, String, byte[]> parked = parked(id);
        String newId = as("operator").contentType("application/json").body("{\"fields\":{\"kind\":\"ok\"}}")
                .post(reserved.dlqPath() + "/entries/" + enc(parked.id()) + "/replay")
                .then().statusCode(201).extract().path("id");
        // Only a job that comes back needs the ledger; one that is done must not leave a field per
        // replay behind (a redrive of a million jobs would leave a million). The worker forgets the
        // hash field and then, in a second command, the time index's member (forgetReplays): wait for
        // both, as the field's going says nothing of the member's.
        String member = reserved.stream() + " " + newId;
        Await.until("the replayed job's ledger field and its time index member to be forgotten once it is done",
                () -> !redis.hash(String.class).hexists(RedisKeys.replayed(reserved.dlq()), member)
                        && redis.sortedSet(String.class).zscore(RedisKeys.replayedAt(reserved.dlq()), member).isEmpty()
                        && reserved.pending() == 0);
    }

    private StreamMessage<String, String, byte[]> parked(String originId) {
        return Await.value("job " + originId + " to be parked", () -> reserved.parked(originId).orElse(null));
    }

    private static String text(byte[] value) {
        return value == null ? null : new String(value, StandardCharsets.UTF_8);
    }
}
