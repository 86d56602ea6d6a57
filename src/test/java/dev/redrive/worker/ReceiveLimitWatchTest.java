package dev.redrive.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.redrive.testing.Await;
import dev.redrive.testing.Own;
import dev.redrive.testing.Streams;
import dev.redrive.testing.TestQueue;
import dev.redrive.testing.WorkerProfile;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.redis.datasource.stream.StreamMessage;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/** maxReceiveCount for a consumer group whose consumers redrive does not run. */
@QuarkusTest
@TestProfile(WorkerProfile.class)
class ReceiveLimitWatchTest {

    @Inject
    @Own("legacy")
    TestQueue legacy;

    @Inject
    @Own("thumbs")
    TestQueue thumbs;

    @Inject
    RedisDataSource redis;

    /** A consumer of another team reads the entry and never acks; it is delivered again each time. */
    void deliver(String id, String consumer, int times) {
        for (int i = 0; i < times; i++) {
            redis.execute("XCLAIM", "legacy", "node-workers", consumer, "0", id);
        }
    }

    @Test
    void entriesDeliveredMoreThanTheLimitAreParkedOthersAreLeftAlone() {
        redis.execute("XGROUP", "CREATE", "legacy", "node-workers", "$", "MKSTREAM");
        String poison = legacy.add(Map.of("job", "resize", "payload", "{\"img\":1}"));
        String healthy = legacy.add(Map.of("job", "resize", "payload", "{\"img\":2}"));
        String acked = legacy.add(Map.of("job", "resize", "payload", "{\"img\":3}"));
        redis.execute("XREADGROUP", "GROUP", "node-workers", "node-1", "COUNT", "3", "STREAMS", "legacy", ">");
        redis.execute("XACK", "legacy", "node-workers", acked);
        deliver(healthy, "node-2", 1); // 2 deliveries: at the limit, not over it
        deliver(poison, "node-2", 2); // 3 deliveries

        StreamMessage<String, String, byte[]> parked = Await.value("the poison entry to be parked",
                () -> legacy.parked(poison).orElse(null));
        Map<String, byte[]> r = parked.payload();
        assertEquals("max-receive", Streams.text(r.get("failure")));
        assertEquals("delivered 3 times without an ack", Streams.text(r.get("reason")));
        assertEquals("3", Streams.text(r.get("attempts")));
        assertEquals("2", Streams.text(r.get("max-attempts")));
        assertEquals("node-workers", Streams.text(r.get("group")));
        assertEquals("node-2", Streams.text(r.get("consumer")));
        assertEquals("{\"img\":1}", Streams.text(r.get("f:payload")));

        Await.until("the parked entry to leave the PEL", () -> legacy.pending() == 1);
        assertEquals(1, legacy.deadLetters().size(), "only the entry over the limit, once");
        assertEquals(0, legacy.parkedCount(healthy));
        assertEquals(0, legacy.parkedCount(acked));
    }

    @Test
    void theRecordNamesTheEntrysJobElseTheWatchsName() {
        redis.execute("XGROUP", "CREATE", "images", "php-workers", "$", "MKSTREAM");
        String named = thumbs.add(Map.of("job", "thumbnail", "payload", "a.png"));
        String unnamed = thumbs.add(Map.of("payload", "b.png"));
        redis.execute("XREADGROUP", "GROUP", "php-workers", "php-1", "COUNT", "2", "STREAMS", "images", ">");
        redis.execute("XCLAIM", "images", "php-workers", "php-2", "0", named, unnamed);

        StreamMessage<String, String, byte[]> first = Await.value("the named entry to be parked",
                () -> thumbs.parked(named).orElse(null));
        StreamMessage<String, String, byte[]> second = Await.value("the unnamed entry to be parked",
                () -> thumbs.parked(unnamed).orElse(null));
        assertEquals("thumbnail", Streams.text(first.payload().get("job")));
        assertEquals("thumbs", Streams.text(second.payload().get("job")));
    }
}
