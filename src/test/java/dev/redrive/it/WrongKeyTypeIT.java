package dev.redrive.it;

import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.redrive.testing.RedisServer;
import dev.redrive.testing.RedriveProcess;

/**
 * A dead-letter key that holds another type of value stops start-up with a message naming it
 * (issue 10, item 1): otherwise every park into it would be refused and jobs would pile up pending.
 */
class WrongKeyTypeIT {

    @Test
    void aDeadLetterKeyOfTheWrongTypeStopsStartUpNamingIt() throws Exception {
        try (RedisServer redis = new RedisServer().start(); RedisCli cli = new RedisCli(redis.port())) {
            cli.call("SET", "{q}:dlq", "not a stream");
            Map<String, String> config = Map.of("quarkus.redis.hosts", redis.url(), "redrive.queues.q.handler", "demo");
            try (RedriveProcess p = new RedriveProcess("wrong-key-type", config).start()) {
                int exit = p.awaitExit(Duration.ofSeconds(60));
                assertNotEquals(0, exit);
                assertTrue(p.output().contains("the dead-letter key {q}:dlq holds a string, not a stream"),
                        "output names the key:\n" + p.output());
            }
        }
    }
}
