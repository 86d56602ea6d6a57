package dev.redrive.it;

import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import dev.redrive.testing.Await;
import dev.redrive.testing.JobLedger;

/**
 * RedisClusterFailoverIT's producer: adds jobs to each queue in turn (about 50/s each) on the
 * primary that owns its stream, and counts a job only once that primary acknowledged it and {@code
 * WAIT 1} confirmed a replica has it: a failover can't take such a job back. After the kill the
 * victim's new primary has no replica left, so there an acknowledged add counts (this test kills
 * nothing else). An add that failed or whose reply was lost is not counted, and the producer asks
 * the cluster anew where the stream lives.
 */
final class FailoverProducer {

    final AtomicBoolean running = new AtomicBoolean(true);
    /** Set once the victim's primary is killed: its slot has no replica from then on. */
    final AtomicBoolean alone = new AtomicBoolean();
    final Map<String, AtomicLong> counted = new ConcurrentHashMap<>();
    /** Queues that get no jobs for now. */
    final Set<String> paused = ConcurrentHashMap.newKeySet();
    /** The entry id of each queue's last counted job. */
    final Map<String, String> last = new ConcurrentHashMap<>();
    private final RedisCluster cluster;
    private final List<String> queues;
    private final Map<String, JobLedger> ledgers;
    private final String victim;

    FailoverProducer(RedisCluster cluster, List<String> queues, Map<String, JobLedger> ledgers, String victim) {
        this.cluster = cluster;
        this.queues = queues;
        this.ledgers = ledgers;
        this.victim = victim;
        queues.forEach(q -> counted.put(q, new AtomicLong()));
    }

    long added(String queue) {
        return counted.get(queue).get();
    }

    /** The entry id of a job of {@code queue} counted after the first {@code count}. */
    String next(String queue, long count) {
        Await.until("a job added to " + queue, Duration.ofSeconds(10), () -> added(queue) > count);
        return last.get(queue);
    }

    void run() {
        Map<String, RedisCli> at = new HashMap<>();
        long n = 0;
        while (running.get()) {
            for (String q : queues) {
                if (paused.contains(q)) {
                    continue;
                }
                String job = q + "-" + n;
                String payload = "{\"job\":\"" + job + "\",\"park\":" + (n % 10 == 0) + ",\"flaky\":" + (n % 7 == 3) + "}";
                try {
                    RedisCli redis = at.get(q);
                    if (redis == null) {
                        int owner = cluster.ownerOf(q);
                        if (owner < 0) {
                            continue; // no primary for the slot yet: try again next round
                        }
                        redis = new RedisCli("127.0.0.1", owner, 2000);
                        at.put(q, redis);
                    }
                    String id = RedisCli.text(redis.call("XADD", q, "*", "payload", payload));
                    boolean noReplica = q.equals(victim) && alone.get();
                    if (noReplica || (Long) redis.call("WAIT", "1", "1000") >= 1) {
                        ledgers.get(q).produced(job, id);
                        last.put(q, id);
                        counted.get(q).incrementAndGet();
                    }
                } catch (Exception e) { // MOVED, CLUSTERDOWN, a dead node: not counted, ask again where q lives
                    drop(at, q);
                }
            }
            n++;
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
        List.copyOf(at.keySet()).forEach(q -> drop(at, q));
    }

    /** Drops the connection to {@code queue}'s node, if any: the next round asks the cluster where it lives. */
    private static void drop(Map<String, RedisCli> at, String queue) {
        try (RedisCli gone = at.remove(queue)) {
            // closed here; no connection, nothing to close
        } catch (IOException e) {
            // dropped anyway
        }
    }
}
