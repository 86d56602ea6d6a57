package dev.redrive.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.redrive.testing.RedisServer;
import dev.redrive.testing.RedriveProcess;
import dev.redrive.testing.TlsFiles;

/**
 * A Redis certificate rotation is routine, not an outage (issue 34, item 15): Redis gets a new CA,
 * server and client certificate, redrive's trust and key files are rewritten in place (as a
 * cert-manager Secret is), every connection is dropped, and redrive goes on over new connections
 * with the material the TLS registry reloaded ({@code quarkus.tls.redis.reload-period}), no restart.
 * The steps are RUNBOOK's "Rotating Redis' TLS certificates": trust both CAs during the overlap.
 */
class RedisTlsRotationIT {

    @Test
    void aRotatedCertificateAndCaAreTakenWithoutARestart() throws Exception {
        TlsFiles before = TlsFiles.create();
        TlsFiles after = TlsFiles.create();
        Path dir = Files.createTempDirectory("redrive-tls-mounted-");
        Path trust = dir.resolve("ca.crt");
        Path cert = dir.resolve("client.crt");
        Path key = dir.resolve("client.key");
        Path redisCas = dir.resolve("redis-ca.crt");
        copy(before.file("ca.crt"), trust);
        copy(before.file("client.crt"), cert);
        copy(before.file("client.key"), key);
        int tlsPort = RedisServer.freePort();
        Map<String, String> config = new HashMap<>();
        config.put("quarkus.redis.hosts", "rediss://127.0.0.1:" + tlsPort);
        config.put("quarkus.redis.tls-configuration-name", "redis");
        config.put("quarkus.tls.redis.trust-store.pem.certs", trust.toString());
        config.put("quarkus.tls.redis.key-store.pem.0.cert", cert.toString());
        config.put("quarkus.tls.redis.key-store.pem.0.key", key.toString());
        config.put("quarkus.tls.redis.hostname-verification-algorithm", "HTTPS");
        config.put("quarkus.tls.redis.reload-period", "1s");
        config.put("redrive.queues.tls.handler", "demo");
        try (RedisServer redis = new RedisServer(before.redisArgs(tlsPort)).start();
                RedisCli cli = new RedisCli(redis.port());
                RedriveProcess redrive = new RedriveProcess("tls-rotation", config).start()) {
            redrive.awaitReady(Duration.ofSeconds(60));
            cli.xadd("tls", "kind", "ok");
            redrive.await("the job before the rotation", Duration.ofSeconds(30),
                    () -> Metrics.sum(redrive.managementPort(), "redrive_jobs_completed_total", "") == 1.0);

            // The overlap: Redis and redrive trust both CAs, redrive's files hold the new client certificate.
            Files.writeString(redisCas, Files.readString(before.file("ca.crt")) + Files.readString(after.file("ca.crt")));
            cli.checked("CONFIG", "SET", "tls-ca-cert-file", redisCas.toString());
            Files.writeString(trust, Files.readString(before.file("ca.crt")) + Files.readString(after.file("ca.crt")));
            copy(after.file("client.key"), key);
            copy(after.file("client.crt"), cert);
            // Redis serves the new certificate and trusts only the new CA; every connection is dropped.
            cli.checked("CONFIG", "SET", "tls-cert-file", after.file("server.crt").toString(), "tls-key-file",
                    after.file("server.key").toString(), "tls-ca-cert-file", after.file("ca.crt").toString());
            cli.checked("CLIENT", "KILL", "TYPE", "normal", "SKIPME", "yes");

            cli.xadd("tls", "kind", "ok");
            redrive.await("the job after the rotation done over new connections, and readiness UP",
                    Duration.ofSeconds(30), () -> Metrics.sum(redrive.managementPort(), "redrive_jobs_completed_total", "") == 2.0
                            && redrive.readiness() == 200);
            assertTrue(RedisCli.text(cli.call("CLIENT", "LIST")).contains("laddr=127.0.0.1:" + tlsPort + " "),
                    "redrive is connected again over TLS");
            assertTrue(redrive.logLines("reloaded the Redis TLS configuration redis") >= 1, redrive.output());
        }
    }

    /** Rewritten in place, as a mounted Secret's file is. */
    private static void copy(Path from, Path to) throws java.io.IOException {
        Files.copy(from, to, StandardCopyOption.REPLACE_EXISTING);
    }
}
