package dev.redrive.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.redrive.testing.Await;
import dev.redrive.testing.RedisServer;
import dev.redrive.testing.RedriveProcess;
import dev.redrive.testing.TlsFiles;

/**
 * redrive against a Redis that it may reach only over TLS with a client certificate (mTLS) and
 * hostname verification: every connection it opens, the pool's and the blocking reader's, takes
 * the TLS configuration of the registry, so new entries of a quiet queue are read. And a reader
 * that can't connect is never quiet: readiness DOWN naming the queue, redrive_readers_failing, a
 * WARN that says what to fix, and the queue reads again by itself once it can.
 */
class RedisTlsIT {

    @Test
    void jobsRunOverTlsAndAReaderThatCantConnectIsVisible() throws Exception {
        TlsFiles tls = TlsFiles.create();
        int tlsPort = RedisServer.freePort();
        Map<String, String> config = new HashMap<>(tls.quarkusConfig());
        config.put("quarkus.redis.hosts", "rediss://127.0.0.1:" + tlsPort);
        config.put("redrive.queues.tls.handler", "demo");
        config.put("redrive.queues.tls.attempts", "3");
        config.put("redrive.queues.tls.backoff", "20ms");
        config.put("redrive.queues.tls.retry-poll", "20ms");
        try (RedisServer redis = new RedisServer(tls.redisArgs(tlsPort)).start();
                RedisCli cli = new RedisCli(redis.port());
                RedriveProcess redrive = new RedriveProcess("tls", config).start()) {
            redrive.awaitReady(Duration.ofSeconds(60));
            Await.until("the quiet queue to wait on its blocking reader", Duration.ofSeconds(20),
                    () -> readerLine(cli) != null);

            for (String kind : List.of("ok", "flaky", "poison")) {
                cli.xadd("tls", "kind", kind);
            }
            Await.until("ok and flaky done, poison parked", Duration.ofSeconds(30),
                    () -> cli.xlen("{tls}:dlq") == 1 && cli.pending("tls", "redrive") == 0
                            && Metrics.sum(redrive.managementPort(), "redrive_jobs_completed_total", "") == 2.0);
            String ours = "id=" + cli.call("CLIENT", "ID") + " ";
            for (String client : clients(cli)) {
                assertTrue(client.startsWith(ours) || client.contains("laddr=127.0.0.1:" + tlsPort + " "),
                        "every connection of redrive uses the TLS port: " + client);
            }

            // The reader's connection is cut and Redis takes no new one (maxclients): the pool's
            // connections still answer PING, yet the queue's new entries can't be read.
            int connected = clients(cli).size();
            cli.call("CONFIG", "SET", "maxclients", Integer.toString(connected - 1));
            String reader = readerLine(cli);
            cli.call("CLIENT", "KILL", "ID", reader.substring(3, reader.indexOf(' ')));
            HttpClient http = HttpClient.newHttpClient();
            HttpResponse<String> ready = Await.value("readiness DOWN naming the queue", Duration.ofSeconds(20), () -> {
                HttpResponse<String> r = readiness(http, redrive);
                return r.statusCode() == 503 && r.body().contains("new entries not read") ? r : null;
            });
            assertTrue(ready.body().contains("\"queue.tls\""), ready.body());
            assertEquals(1.0, Metrics.sum(redrive.managementPort(), "redrive_readers_failing", ""), 0.0);
            // The reader marks itself failing (what readiness and the gauge read) before it writes its
            // WARN line (BlockingReader.failed): wait for the line rather than look once.
            Await.until("the reader's WARN line", Duration.ofSeconds(20),
                    () -> redrive.logLines("waiting for new entries of group redrive failed") >= 1);
            assertEquals(1, redrive.logLines("waiting for new entries of group redrive failed"), redrive.output());
            assertTrue(redrive.output().contains("check that Redis runs and is reachable at quarkus.redis.hosts"),
                    redrive.output());
            cli.xadd("tls", "kind", "ok");

            cli.call("CONFIG", "SET", "maxclients", "10000");
            Await.until("the reader to read again and the job added meanwhile to be done", Duration.ofSeconds(30),
                    () -> Metrics.sum(redrive.managementPort(), "redrive_jobs_completed_total", "") == 3.0
                            && readiness(http, redrive).statusCode() == 200);
            assertEquals(0.0, Metrics.sum(redrive.managementPort(), "redrive_readers_failing", ""), 0.0);
            assertEquals(1, redrive.logLines("waiting for new entries of group redrive works again"), redrive.output());
        }
    }

    private static List<String> clients(RedisCli cli) {
        return RedisCli.text(cli.call("CLIENT", "LIST")).lines().filter(l -> !l.isBlank()).toList();
    }

    /** The CLIENT LIST line of redrive's blocked XREADGROUP, or null. */
    private static String readerLine(RedisCli cli) {
        return clients(cli).stream().filter(l -> l.contains("cmd=xreadgroup") && l.contains("flags=b")).findFirst()
                .orElse(null);
    }

    private static HttpResponse<String> readiness(HttpClient http, RedriveProcess redrive) {
        try {
            return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + redrive.managementPort()
                    + "/q/health/ready")).build(), HttpResponse.BodyHandlers.ofString());
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
