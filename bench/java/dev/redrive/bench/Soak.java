package dev.redrive.bench;

import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import dev.redrive.testing.RedisServer;

/**
 * redrive's soak (issue 10): several packaged service processes on one queue against a private
 * redis-server with AOF, a producer at a steady rate, a downstream that flaps, and an operator
 * replaying and redriving what is parked, while service processes are killed with SIGKILL and
 * Redis is paused (SIGSTOP/SIGCONT) and killed and restarted from its AOF. At the end it drains and
 * checks every job ever produced with the tests' own invariant check (dev.redrive.testing.JobLedger,
 * so bench/soak.sh runs this with target/test-classes on the class path), and exits 0 when every
 * invariant holds, 1 when one does not. The producer trims the stream as producers do
 * ({@code XADD ... MAXLEN ~ <maxlen>}), and the downstream is sometimes hostile (huge bodies,
 * absurd Retry-After values). bench/soak.sh runs it; bench/README.md ("Soak") says what it checks.
 * <p>
 * Built on the tests' fixtures: the services are RedriveProcess, Redis a RedisServer (AOF, on a
 * fixed port and directory, so a restart reloads it), the Redis client RedisCli; each part is a
 * class of its own handed the run's {@link SoakRun}: {@link SoakProducer}, {@link SoakDownstream},
 * {@link SoakFaults}, {@link SoakOperator}, {@link SoakCheck}.
 */
public final class Soak {

    private Soak() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> a = new HashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            a.put(args[i].replaceFirst("^--", ""), args[i + 1]);
        }
        SoakRun run = new SoakRun(a, RedisServer.freePort());
        Files.createDirectories(run.out.resolve("redis"));
        // Ctrl-C or SIGTERM: take redis-server and the services down with the soak.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> ProcessHandle.current().descendants().forEach(p -> {
            p.destroyForcibly();
        })));
        SoakRun.log("soak: %d min, %d services, %d jobs/s, stream trimmed to ~%d, results in %s", run.minutes, run.services,
                run.rate, run.maxlen, run.out);

        // AOF with appendfsync always, so a kill -9 loses no acknowledged write; its files and log in out/redis
        RedisServer redis = new RedisServer(run.redisPort, "--appendonly", "yes", "--appendfsync", "always",
                "--dir", run.out.resolve("redis").toString(), "--logfile", run.out.resolve("redis/redis.log").toString());
        SoakFaults faults = new SoakFaults(run);
        SoakDownstream downstream = new SoakDownstream(run);
        List<SoakService> fleet = new ArrayList<>();
        boolean pass = false;
        try {
            faults.start(redis);
            for (int i = 0; i < run.services; i++) {
                fleet.add(new SoakService(run, i, downstream.port));
            }
            for (SoakService s : fleet) {
                s.start();
            }
            for (SoakService s : fleet) {
                s.awaitReady(Duration.ofSeconds(120));
            }
            SoakProducer producer = new SoakProducer(run);
            List<Thread> threads = List.of(
                    run.thread("producer", producer::run),
                    run.thread("downstream-flaps", downstream::flap),
                    run.thread("service-kills", () -> faults.killServices(fleet)),
                    run.thread("redis-faults", () -> faults.redis(redis)),
                    run.thread("operator", () -> new SoakOperator(run).run(fleet)));
            long end = System.nanoTime() + TimeUnit.MINUTES.toNanos(run.minutes);
            while (System.nanoTime() < end) {
                Thread.sleep(10_000);
                SoakRun.log("%s; produced %d, downstream calls %d (%d hostile); faults %s", run.elapsed(),
                        producer.produced.get(), downstream.calls.get(), downstream.hostile.get(), run.faults);
            }
            run.stop();
            for (Thread t : threads) {
                t.join(60_000);
            }
            SoakRun.log("stopping faults: Redis and every service up, downstream healthy; draining");
            faults.ensureUp(redis);
            downstream.mode = SoakDownstream.Mode.HEALTHY;
            for (SoakService s : fleet) {
                s.ensureUp();
            }
            pass = new SoakCheck(run).drainAndCheck(producer, downstream);
        } finally {
            run.stop();
            for (SoakService s : fleet) {
                s.stop();
            }
            downstream.stop();
            redis.close();
        }
        System.exit(pass ? 0 : 1);
    }
}
