package dev.redrive.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A throw-away certificate authority with a server certificate for 127.0.0.1 / localhost and a
 * client certificate, made with openssl into a temporary directory when a test starts: no key
 * material is checked in, and none outlives the test run.
 */
public final class TlsFiles {

    private final Path dir;

    private TlsFiles(Path dir) {
        this.dir = dir;
    }

    public static TlsFiles create() {
        try {
            Path dir = Files.createTempDirectory("redrive-tls-");
            TlsFiles files = new TlsFiles(dir);
            files.openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=redrive test CA",
                    "-keyout", "ca.key", "-out", "ca.crt");
            files.sign("server", "/CN=localhost", "subjectAltName=IP:127.0.0.1,DNS:localhost");
            files.sign("client", "/CN=redrive", "extendedKeyUsage=clientAuth");
            return files;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private void sign(String name, String subject, String extension) throws IOException {
        openssl("req", "-newkey", "rsa:2048", "-nodes", "-subj", subject, "-keyout", name + ".key", "-out", name + ".csr");
        Files.writeString(dir.resolve(name + ".ext"), extension + "\n", StandardCharsets.UTF_8);
        openssl("x509", "-req", "-in", name + ".csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial", "-days", "2",
                "-extfile", name + ".ext", "-out", name + ".crt");
    }

    private void openssl(String... args) {
        List<String> cmd = new ArrayList<>(List.of("openssl"));
        cmd.addAll(List.of(args));
        try {
            Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (p.waitFor() != 0) {
                throw new IllegalStateException(String.join(" ", cmd) + " failed:\n" + out);
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public Path file(String name) {
        return dir.resolve(name);
    }

    /** redis-server arguments: TLS on {@code tlsPort} (plain text stays on its --port), client certificates required. */
    public String[] redisArgs(int tlsPort) {
        return new String[] { "--tls-port", Integer.toString(tlsPort), "--tls-cert-file", file("server.crt").toString(),
                "--tls-key-file", file("server.key").toString(), "--tls-ca-cert-file", file("ca.crt").toString(),
                "--tls-auth-clients", "yes", "--tls-replication", "no", "--tls-cluster", "no" };
    }

    /**
     * Quarkus properties for a TLS configuration named {@code redis} of the TLS registry: this CA
     * as trust store, the client certificate for mTLS, hostname verification on.
     */
    public Map<String, String> quarkusConfig() {
        return Map.of(
                "quarkus.redis.tls-configuration-name", "redis",
                "quarkus.tls.redis.trust-store.pem.certs", file("ca.crt").toString(),
                "quarkus.tls.redis.key-store.pem.0.cert", file("client.crt").toString(),
                "quarkus.tls.redis.key-store.pem.0.key", file("client.key").toString(),
                "quarkus.tls.redis.hostname-verification-algorithm", "HTTPS");
    }
}
