package dev.redrive.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import dev.redrive.testing.RedisCli;
import dev.redrive.testing.RedisServer;

/**
 * The soak's faults: a random service kill -9 every 25-55 s, restarted 2-7 s later; Redis paused
 * (SIGSTOP) at a sixth of the run and every third after, killed and restarted from its AOF at each half.
 */
final class SoakFaults {

    private final SoakRun run;

    SoakFaults(SoakRun run) {
        this.run = run;
    }

    void killServices(List<SoakService> fleet) {
        run.sleepWhileRunning(20_000);
        while (run.running()) {
            SoakService s = fleet.get(ThreadLocalRandom.current().nextInt(fleet.size()));
            s.kill();
            run.faults.add("service kill -9");
            run.sleepWhileRunning(2_000 + ThreadLocalRandom.current().nextInt(5_000));
            s.startQuietly();
            run.sleepWhileRunning(25_000 + ThreadLocalRandom.current().nextInt(30_000));
        }
    }

    /** A pause at a sixth of the run and every third after; a kill and restart from the AOF at each half. */
    void redis(RedisServer redis) {
        long total = TimeUnit.MINUTES.toMillis(run.minutes);
        long t0 = System.currentTimeMillis();
        List<long[]> plan = new ArrayList<>(); // {at ms, 0 = pause, 1 = restart}
        for (long at = total / 6; at < total - 20_000; at += total / 3) {
            plan.add(new long[] {at, 0});
        }
        for (long at = total / 3; at < total - 20_000; at += total / 2) {
            plan.add(new long[] {at, 1});
        }
        plan.sort((x, y) -> Long.compare(x[0], y[0]));
        for (long[] step : plan) {
            run.sleepWhileRunning(Math.max(0, t0 + step[0] - System.currentTimeMillis()));
            if (!run.running()) {
                return;
            }
            if (step[1] == 0) {
                long pause = 4_000 + ThreadLocalRandom.current().nextInt(5_000);
                SoakRun.log("fault: Redis SIGSTOP for %d ms", pause);
                run.faults.add("redis SIGSTOP/SIGCONT");
                redis.pause();
                SoakRun.sleep(pause);
                redis.resume();
            } else {
                SoakRun.log("fault: Redis kill -9, restart from its AOF");
                run.faults.add("redis kill -9 + restart");
                redis.kill();
                SoakRun.sleep(2_000);
                try {
                    start(redis);
                } catch (IllegalStateException e) {
                    SoakRun.log("Redis did not come back: %s", e.getMessage());
                }
            }
        }
    }

    /** Starts Redis (again) and waits until it has loaded its AOF and answers PONG. */
    void start(RedisServer redis) {
        redis.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            try (RedisCli r = run.redis(1000)) {
                if ("PONG".equals(RedisCli.text(r.call("PING")))) {
                    return;
                }
            } catch (Exception loading) {
                // not yet
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("redis-server did not come up; see " + run.out.resolve("redis"));
            }
            SoakRun.sleep(100);
        }
    }

    /** Redis running and not paused: continued, or restarted from its AOF. */
    void ensureUp(RedisServer redis) {
        if (redis.alive()) {
            redis.resume();
        } else {
            start(redis);
        }
    }
}
