package dev.redrive.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class RedisKeysTest {

    @Test
    void slotsMatchRedisCluster() {
        // Values from CLUSTER KEYSLOT of a redis-server 7.0 with cluster-enabled.
        assertEquals(12182, HashSlot.of("foo"));
        assertEquals(3443, HashSlot.of("{user1000}.following"));
        assertEquals(HashSlot.of("{user1000}.following"), HashSlot.of("{user1000}.followers"));
        assertEquals(10595, HashSlot.of("{}x"), "an empty tag hashes the whole key");
    }

    @Test
    void deadLettersShareTheOriginStreamsSlot() {
        assertEquals("{orders}:dlq", RedisKeys.defaultDeadLetters("orders"));
        assertEquals("{shop}orders:dlq", RedisKeys.defaultDeadLetters("{shop}orders"));
        assertTrue(RedisKeys.sameSlot("orders", RedisKeys.defaultDeadLetters("orders")));
        assertTrue(RedisKeys.sameSlot("orders", RedisKeys.notBefore("orders")));
        assertTrue(RedisKeys.sameSlot("orders", RedisKeys.deadLetterStats(RedisKeys.defaultDeadLetters("orders"))));
        assertFalse(RedisKeys.sameSlot("orders", "dead-letters"));
    }
}
