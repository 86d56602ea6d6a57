package dev.redrive.testing;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Config overrides for a test profile, queue by queue:
 * {@code TestConfig.withApiUsers().queue("jobs").attempts(1).and().set("redrive.consumer-name", "w").build()}.
 * A queue starts with what every test queue wants: the scripted handler, and a short block, so a
 * worker that is stopped or told of new work is never held two seconds in XREADGROUP.
 */
public final class TestConfig {

    private final Map<String, String> config = new LinkedHashMap<>();

    private TestConfig() {
    }

    public static TestConfig empty() {
        return new TestConfig();
    }

    /** With the API's test users ({@link ApiUsers}). */
    public static TestConfig withApiUsers() {
        TestConfig c = new TestConfig();
        c.config.putAll(ApiUsers.config());
        return c;
    }

    public TestConfig set(String key, String value) {
        config.put(key, value);
        return this;
    }

    /** A queue reading {@code name} with the scripted handler (see {@link Queue#handler} to change it). */
    public Queue queue(String name) {
        return new Queue(name).handler("scripted").set("block", "200ms");
    }

    public Map<String, String> build() {
        return Map.copyOf(config);
    }

    /** One queue's properties, {@code redrive.queues.<name>.*}. */
    public final class Queue {
        private final String prefix;

        private Queue(String name) {
            this.prefix = "redrive.queues." + name + ".";
        }

        public Queue handler(String handler) {
            return set("handler", handler);
        }

        public Queue attempts(int attempts) {
            return set("attempts", Integer.toString(attempts));
        }

        public Queue backoff(String backoff) {
            return set("backoff", backoff);
        }

        /** How often the retry scheduler looks for due jobs: short where a test waits for retries. */
        public Queue retryPoll(String period) {
            return set("retry-poll", period);
        }

        /** Any property of the queue, by its name under {@code redrive.queues.<name>.}. */
        public Queue set(String property, String value) {
            config.put(prefix + property, value);
            return this;
        }

        /** Back to the whole config, for the next queue or setting. */
        public TestConfig and() {
            return TestConfig.this;
        }
    }
}
