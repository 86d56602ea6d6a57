package dev.redrive.worker;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jboss.logging.Logger;

import dev.redrive.redis.RedisKeys;
import dev.redrive.redis.StreamInfo;

/**
 * Refuses to start when a key redrive writes beside a dead-letter stream holds another type of
 * value: the scripts would refuse every park into it, and jobs would pile up pending.
 */
final class DeadLetterKeyTypes {

    private static final Logger LOG = Logger.getLogger(DeadLetterKeyTypes.class);
    private static final Duration CHECK = Duration.ofSeconds(2);

    private final StreamInfo redis;

    DeadLetterKeyTypes(StreamInfo redis) {
        this.redis = redis;
    }

    /** Throws on the first key of the wrong type; gives up quietly when Redis can't be asked yet. */
    void require(List<String> deadLetterStreams) {
        for (String deadLetters : deadLetterStreams) {
            if (!require(deadLetters)) {
                return;
            }
        }
    }

    /** False when Redis can't be asked yet: the scripts' own checks still hold, nothing is written. */
    private boolean require(String deadLetters) {
        Map<String, String> wanted = new LinkedHashMap<>();
        wanted.put(deadLetters, "stream");
        wanted.put(RedisKeys.deadLetterStats(deadLetters), "hash");
        wanted.put(RedisKeys.audit(deadLetters), "stream");
        wanted.put(RedisKeys.replayed(deadLetters), "hash");
        wanted.put(RedisKeys.replayedAt(deadLetters), "zset");
        for (var w : wanted.entrySet()) {
            String key = w.getKey();
            String type = w.getValue();
            String found;
            try {
                found = redis.type(key).await().atMost(CHECK);
            } catch (RuntimeException e) {
                LOG.warnf("could not check the types of redrive's keys at start-up (%s); every park checks them itself",
                        e.getMessage());
                return false;
            }
            if (!found.equals("none") && !found.equals(type)) {
                throw new IllegalStateException("the dead-letter key " + key + " holds a " + found + ", not a " + type
                        + ": redrive would park nothing there; rename or delete that key, or configure another "
                        + "dead-letter stream (redrive.queues.<name>.dlq, redrive.watch.<name>.dlq or DLQ_NAME)");
            }
        }
        return true;
    }
}
