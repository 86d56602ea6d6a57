package dev.redrive.testing;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The packaged service ({@code target/quarkus-app/quarkus-run.jar}) as a separate process, the
 * way it runs in a pod: started with system properties, killed with SIGKILL or stopped with
 * SIGTERM. Used by the *IT tests, which Maven runs after packaging, and by the bench and the soak
 * (bench/java), which choose the jar, the JVM's options and where the log goes.
 */
public final class RedriveProcess implements AutoCloseable {

    private final Map<String, String> properties;
    private final Map<String, String> env = new java.util.HashMap<>();
    private final int httpPort = RedisServer.freePort();
    private final String name;
    private Path log; // a temporary file unless logTo, made at the first start
    private Path jar;
    private List<String> jvmOptions;
    private final List<String> command = new ArrayList<>();
    private final int managementPort = RedisServer.freePort();
    private String maxHeap = "256m";
    private boolean warmUp;
    private Process process;

    public RedriveProcess(String name, Map<String, String> properties) {
        this.name = name;
        this.properties = properties;
    }

    public static String jar() {
        String jar = System.getProperty("redrive.jar", "target/quarkus-app/quarkus-run.jar");
        if (!new File(jar).isFile()) {
            throw new IllegalStateException(jar + " is missing: run the ITs with mvn verify, which packages first");
        }
        return jar;
    }

    public RedriveProcess start() {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        cmd.addAll(jvmOptions != null ? jvmOptions : List.of("-Xmx" + maxHeap, "-XX:+UseSerialGC"));
        cmd.add("-Dquarkus.http.port=" + httpPort);
        cmd.add("-Dquarkus.management.port=" + managementPort);
        if (!warmUp && !properties.containsKey(WARM_UP_JOBS)) {
            // Seconds at every start of every process-level test, for nothing they check (WarmUpIT does).
            cmd.add("-D" + WARM_UP_JOBS + "=0");
        }
        properties.forEach((k, v) -> cmd.add("-D" + k + "=" + v));
        cmd.add("-jar");
        cmd.add(jar != null ? jar.toString() : jar());
        command.clear();
        command.addAll(cmd);
        try {
            if (log == null) {
                log = Files.createTempFile("redrive-" + name + "-", ".log");
            }
            ProcessBuilder builder = new ProcessBuilder(cmd).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
            builder.environment().putAll(env);
            process = builder.start();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return this;
    }

    /** Debian's libfaketime (package faketime; test.sh installs it). */
    public static final Path FAKETIME = Path.of("/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1");

    /**
     * Runs the process (before start) with its wall clock {@code offset} off, e.g. {@code "-1h"}, under
     * Debian's faketime: a replica whose clock is wrong. The monotonic clock is left alone (timers,
     * System.nanoTime), and the offset is fixed: one that changes as the process runs hung the JVM.
     */
    public RedriveProcess skewedBy(String offset) {
        if (!Files.isReadable(FAKETIME)) {
            throw new IllegalStateException(FAKETIME + " is missing: apt-get install faketime (test.sh does)");
        }
        return env(Map.of("LD_PRELOAD", FAKETIME.toString(), "FAKETIME", offset, "FAKETIME_DONT_FAKE_MONOTONIC", "1"));
    }

    /** Environment variables for the process, the way a Kubernetes Secret or ConfigMap provides them. */
    public RedriveProcess env(Map<String, String> variables) {
        env.putAll(variables);
        return this;
    }

    /**
     * The JVM's options (before start), in place of the tests' {@code -Xmx256m -XX:+UseSerialGC}:
     * the bench runs the service as it ships ({@code -Xmx128m} and the JVM's own collector).
     */
    public RedriveProcess jvmOptions(List<String> options) {
        this.jvmOptions = List.copyOf(options);
        return this;
    }

    /** The jar to run (before start), in place of {@link #jar()}: the bench's A/B of two builds. */
    public RedriveProcess jar(Path jar) {
        this.jar = jar;
        return this;
    }

    /** Where the process's output goes (before start; appended), in place of a temporary file. */
    public RedriveProcess logTo(Path file) {
        this.log = file;
        return this;
    }

    public Path log() {
        return log;
    }

    /** The command line of the last start. */
    public List<String> command() {
        return List.copyOf(command);
    }

    private static final String WARM_UP_JOBS = "redrive.warm-up.jobs";

    /** Starts with the warm-up as configured (as shipped, unless a property says otherwise); without this, none. */
    public RedriveProcess withWarmUp() {
        this.warmUp = true;
        return this;
    }

    /** The JVM's -Xmx (before start); 256m unless a test needs the heap tight. */
    public RedriveProcess maxHeap(String size) {
        this.maxHeap = size;
        return this;
    }

    public long pid() {
        return process.pid();
    }

    public int httpPort() {
        return httpPort;
    }

    /** Waits until readiness says UP (Redis reachable, every group in place). */
    public RedriveProcess awaitReady(Duration bound) {
        Await.until("redrive to be ready (log: " + log + ")", bound, () -> {
            if (!process.isAlive()) {
                throw new AssertionError("redrive exited with " + process.exitValue() + ":\n" + output());
            }
            return readiness() == 200;
        });
        return this;
    }

    /** Readiness' status now, or -1 when it does not answer within 5 s. */
    public int readiness() {
        HttpResponse<String> r = readinessReply();
        return r == null ? -1 : r.statusCode();
    }

    /** Readiness' body now (it names what is DOWN), or "" when it does not answer within 5 s. */
    public String readinessBody() {
        HttpResponse<String> r = readinessReply();
        return r == null ? "" : r.body();
    }

    private HttpResponse<String> readinessReply() {
        try {
            return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build().send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + managementPort + "/q/health/ready")).timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    public int managementPort() {
        return managementPort;
    }

    public boolean alive() {
        return process != null && process.isAlive();
    }

    /** Waits for the process to exit by itself and returns its exit code. */
    public int awaitExit(Duration bound) {
        Await.until("redrive to exit", bound, () -> !process.isAlive());
        return process.exitValue();
    }

    /** SIGKILL: no drain, no cleanup, as an OOM kill or a lost node. */
    public void kill() {
        process.destroyForcibly();
        awaitExit(Duration.ofSeconds(10));
    }

    /** SIGTERM: what Kubernetes sends; the service drains before it exits. */
    public int terminate(Duration bound) {
        process.destroy();
        return awaitExit(bound);
    }

    public String output() {
        if (log == null) {
            return "(not started)";
        }
        try {
            return Files.readString(log);
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    /** {@link Await#until}, failing with the service's log: what a timeout in CI needs to be read. */
    public void await(String what, Duration bound, java.util.function.BooleanSupplier condition) {
        try {
            Await.until(what, bound, condition);
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; the service's log:\n" + output(), e);
        }
    }

    /** How many lines of the log so far contain {@code text}. */
    public long logLines(String text) {
        return output().lines().filter(line -> line.contains(text)).count();
    }

    @Override
    public void close() {
        if (process != null && process.isAlive()) {
            process.destroyForcibly();
        }
    }
}
