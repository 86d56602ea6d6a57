package dev.redrive.bench;

import java.nio.file.Files;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import dev.redrive.testing.JobLedger;
import dev.redrive.testing.RedisCli;

/**
 * The soak's end: waits until the group has nothing pending, nothing unread and the stream and
 * dead-letter lengths hold still for 10 s, reads every park and replay into the ledger, checks
 * every life with the tests' JobLedger and prints the summary (also summary.txt).
 */
final class SoakCheck {

    private final SoakRun run;

    SoakCheck(SoakRun run) {
        this.run = run;
    }

    boolean drainAndCheck(SoakProducer producer, SoakDownstream downstream) throws Exception {
        RedisCli r = null;
        String last = "";
        int stable = 0, polls = 0;
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
        while (stable < 10) {
            if (System.nanoTime() > deadline) {
                SoakRun.log("not drained after 5 minutes: %s", last);
                break;
            }
            Thread.sleep(1000);
            if (++polls % 30 == 0) {
                SoakRun.log("draining: %s", last);
            }
            String now;
            try {
                r = r != null ? r : run.redis(10_000);
                now = "pending " + pending(r) + ", lag " + lag(r) + ", stream " + r.checked("XLEN", SoakRun.STREAM) + ", dlq "
                        + r.checked("XLEN", SoakRun.DLQ);
            } catch (Exception e) {
                r = SoakProducer.close(r);
                now = "redis: " + e.getMessage();
            }
            stable = now.equals(last) && now.startsWith("pending 0, lag 0,") ? stable + 1 : 0;
            last = now;
        }
        SoakRun.log("drained: %s", last);

        // Every park and replay since the start: the dead-letter stream, and its audit trail.
        JobLedger.Report report;
        long pel, parkedNow, streamNow;
        try (RedisCli c = run.redis(10_000)) {
            run.ledger.readDeadLetters(args -> c.checked((Object[]) args), SoakRun.DLQ, SoakRun.AUDIT);
            pel = pending(c);
            parkedNow = (Long) c.checked("XLEN", SoakRun.DLQ);
            streamNow = (Long) c.checked("XLEN", SoakRun.STREAM);
        } finally {
            SoakProducer.close(r);
        }
        report = run.ledger.check();

        StringBuilder s = new StringBuilder();
        s.append(String.format("soak: %d min, %d service processes (-Xmx128m), %d jobs/s, producer MAXLEN ~ %d%n",
                run.minutes, run.services, run.rate, run.maxlen));
        s.append(String.format("jobs produced (acknowledged): %d; stream holds %d now (trimmed), %d parked now%n",
                producer.produced.get(), streamNow, parkedNow));
        s.append(String.format("downstream calls: %d (%d hostile: huge bodies, absurd Retry-After)%n",
                downstream.calls.get(), downstream.hostile.get()));
        s.append(String.format("faults injected: %s%n", run.faults));
        s.append(String.format("operator calls: %s%n", run.operator));
        s.append(String.format("PEL after drain: %d%n", pel));
        s.append(report);
        boolean pass = pel == 0 && last.startsWith("pending 0, lag 0,") && report.clean();
        s.append("soak verdict: ").append(pass ? "PASS" : "FAIL").append('\n');
        System.out.print(s);
        Files.writeString(run.out.resolve("summary.txt"), s.toString());
        return pass;
    }

    static long pending(RedisCli r) {
        List<?> summary = (List<?>) r.checked("XPENDING", SoakRun.STREAM, SoakRun.GROUP);
        return (Long) summary.get(0);
    }

    /** Entries not yet read by the group; when Redis can't tell (lag nil), whether the last one was delivered. */
    static long lag(RedisCli r) {
        for (Object g : (List<?>) r.checked("XINFO", "GROUPS", SoakRun.STREAM)) {
            Map<String, Object> info = pairs((List<?>) g);
            if (SoakRun.GROUP.equals(info.get("name"))) {
                if (info.get("lag") instanceof Long l) {
                    return l;
                }
                Object last = pairs((List<?>) r.checked("XINFO", "STREAM", SoakRun.STREAM)).get("last-generated-id");
                return String.valueOf(last).equals(info.get("last-delivered-id")) ? 0 : 1;
            }
        }
        return -1;
    }

    /** A flat reply of names and values; bulk strings as text, numbers and nil as they are. */
    static Map<String, Object> pairs(List<?> flat) {
        Map<String, Object> m = new HashMap<>();
        for (int i = 0; i + 1 < flat.size(); i += 2) {
            Object v = flat.get(i + 1);
            m.put(RedisCli.text(flat.get(i)), v instanceof byte[] ? RedisCli.text(v) : v);
        }
        return m;
    }
}
