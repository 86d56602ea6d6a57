package dev.redrive.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import dev.redrive.testing.JobLedger;
import dev.redrive.testing.RedisCli;

/**
 * One soak's settings (bench/soak.sh's options), whether it still runs, and what every part of it
 * records: the ledger of lives, the faults injected and the operator's calls. Handed to each part.
 */
final class SoakRun {

    static final String STREAM = "soak";
    static final String GROUP = "redrive";
    static final String DLQ = "{soak}:dlq";
    static final String AUDIT = "{soak}:dlq:audit";

    final int minutes, services, rate, maxlen, redisPort;
    final Path jar, out;
    /** Every life and its outcome: what the producer added, what the downstream answered, what Redis parked and replayed. */
    final JobLedger ledger = new JobLedger();
    final Counts faults = new Counts();
    final Counts operator = new Counts();
    private final long started = System.nanoTime();
    private volatile boolean running = true;

    SoakRun(Map<String, String> a, int redisPort) {
        minutes = Integer.parseInt(a.getOrDefault("minutes", "20"));
        services = Integer.parseInt(a.getOrDefault("services", "3"));
        rate = Integer.parseInt(a.getOrDefault("rate", "40"));
        maxlen = Integer.parseInt(a.getOrDefault("maxlen", "5000"));
        jar = Path.of(a.getOrDefault("jar", "target/quarkus-app/quarkus-run.jar"));
        out = Path.of(a.getOrDefault("out", "bench/results/soak"));
        this.redisPort = redisPort;
    }

    boolean running() {
        return running;
    }

    void stop() {
        running = false;
    }

    /** A connection to the soak's Redis, each read bounded by {@code timeoutMillis}; a new one after Redis was away. */
    RedisCli redis(int timeoutMillis) throws IOException {
        return new RedisCli("127.0.0.1", redisPort, timeoutMillis);
    }

    Thread thread(String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    void sleepWhileRunning(long millis) {
        long end = System.currentTimeMillis() + millis;
        while (running && System.currentTimeMillis() < end) {
            sleep(Math.min(200, end - System.currentTimeMillis()));
        }
    }

    String elapsed() {
        long s = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started);
        return String.format("%d:%02d", s / 60, s % 60);
    }

    static void log(String format, Object... args) {
        System.err.printf("%s soak %s%n", Instant.now().toString().substring(11, 19), String.format(format, args));
    }

    /** Counts by name, printed sorted. */
    static final class Counts {
        private final Map<String, AtomicLong> counts = new ConcurrentHashMap<>();

        void add(String what) {
            counts.computeIfAbsent(what, k -> new AtomicLong()).incrementAndGet();
        }

        @Override
        public String toString() {
            Map<String, Long> sorted = new TreeMap<>();
            counts.forEach((k, v) -> sorted.put(k, v.get()));
            return sorted.toString();
        }
    }
}
