package dev.redrive.bench;

import java.io.IOException;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import dev.redrive.testing.RedisCli;

/** The soak's producer: a steady rate, a unique soak-id per job, a kind that says how the downstream treats it. */
final class SoakProducer {

    /** Jobs Redis acknowledged (each is in the ledger with the entry id XADD answered). */
    final AtomicLong produced = new AtomicLong();
    private final AtomicLong next = new AtomicLong();
    private final SoakRun run;

    SoakProducer(SoakRun run) {
        this.run = run;
    }

    void run() {
        // A long timeout: a paused Redis answers after SIGCONT. A retried XADD that had landed
        // adds a life the ledger was never told of: reported as unacknowledged, not lost.
        // MAXLEN ~: the producers' common idiom; a job trimmed before it finished must be
        // parked as missing, never vanish.
        RedisCli r = null;
        long tick = 100;
        double perTick = run.rate * tick / 1000.0, owed = 0;
        long pending = -1;
        while (run.running()) {
            long t0 = System.nanoTime();
            owed += perTick;
            while (owed >= 1 && run.running()) {
                long id = pending >= 0 ? pending : next.getAndIncrement();
                pending = id;
                String kind = kind(id);
                try {
                    if (r == null) {
                        r = run.redis(30_000);
                    }
                    String entry = RedisCli.text(r.checked("XADD", SoakRun.STREAM, "MAXLEN", "~", Integer.toString(run.maxlen),
                            "*", "soak-id", Long.toString(id), "kind", kind, "payload",
                            "{\"soak\":" + id + ",\"kind\":\"" + kind + "\"}"));
                    run.ledger.produced(Long.toString(id), entry);
                    produced.incrementAndGet();
                    pending = -1;
                    owed--;
                } catch (IOException | IllegalStateException e) {
                    r = close(r);
                    SoakRun.sleep(500); // Redis is away: try the same job again
                    break;
                }
            }
            SoakRun.sleep(Math.max(0, tick - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0)));
        }
        close(r);
    }

    /** Closes a connection Redis dropped (or that the soak is done with); null, so the next call connects anew. */
    static RedisCli close(RedisCli r) {
        if (r != null) {
            try {
                r.close();
            } catch (IOException e) {
                // closing anyway
            }
        }
        return null;
    }

    /** ok 85%; flaky (its first attempt fails) 8%; poison (every attempt of its first life fails) 4%; terminal 3%. */
    static String kind(long id) {
        int p = new Random(id * 0x9E3779B97F4A7C15L).nextInt(100);
        return p < 85 ? "ok" : p < 93 ? "flaky" : p < 97 ? "poison" : "terminal";
    }
}
