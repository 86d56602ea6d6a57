package dev.redrive.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** How a reader's per-node address is made from the configured URL: the node changes, nothing else does. */
class RedisClientOptionsTest {

    @Test
    void aNodeIsTheHostAndPortOfAConfiguredAddressWith6379WhenItNamesNone() {
        assertEquals("10.0.0.7:7001", RedisClientOptions.node("rediss://redrive:secret@10.0.0.7:7001/0"));
        assertEquals("redis-0.redis:6379", RedisClientOptions.node("redis://redis-0.redis"));
    }

    @Test
    void aNodesAddressKeepsTheSchemeUserPasswordAndDatabaseOfTheConfiguredOne() {
        assertEquals("rediss://redrive:s%40cret@10.0.0.9:7002/0?timeout=5",
                RedisClientOptions.address("rediss://redrive:s%40cret@10.0.0.7:7001/0?timeout=5", "10.0.0.9:7002"));
    }
}
