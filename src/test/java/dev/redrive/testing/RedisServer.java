package dev.redrive.testing;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A private redis-server process on a free loopback port, for one test class. Tests never touch
 * the machine's shared Redis on 6379.
 */
public final class RedisServer implements AutoCloseable {

    private final int port;
    private final Path dir;
    private final List<String> extraArgs;
    private Process process;

    public RedisServer(String... extraArgs) {
        this(freePort(), extraArgs);
    }

    public RedisServer(int port, String... extraArgs) {
        this.port = port;
        this.extraArgs = List.of(extraArgs);
        try {
            this.dir = Files.createTempDirectory("redrive-redis-");
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    public RedisServer start() {
        List<String> cmd = new ArrayList<>(List.of("redis-server", "--port", Integer.toString(port), "--bind", "127.0.0.1",
                "--save", "", "--appendonly", "no", "--dir", dir.toString(), "--daemonize", "no"));
        cmd.addAll(extraArgs);
        try {
            process = new ProcessBuilder(cmd).redirectErrorStream(true)
                    .redirectOutput(new File(dir.toFile(), "redis.log")).start();
        } catch (IOException e) {
            throw new IllegalStateException("redis-server could not start; install Debian's redis-server package", e);
        }
        awaitPort(port, process);
        return this;
    }

    public int port() {
        return port;
    }

    public String url() {
        return "redis://127.0.0.1:" + port;
    }

    public Path dir() {
        return dir;
    }

    /** Whether the server's process runs (a paused one does). */
    public boolean alive() {
        return process != null && process.isAlive();
    }

    /** Stops the server the hard way (SIGKILL), as a crash would. */
    public void kill() {
        if (process != null) {
            process.destroyForcibly();
            try {
                process.waitFor();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Freezes the server (SIGSTOP): connections stay open and nothing answers, as a stalled host would. */
    public void pause() {
        signal("STOP");
    }

    /** Lets a paused server run again (SIGCONT). */
    public void resume() {
        signal("CONT");
    }

    private void signal(String name) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).inheritIO().start();
            if (kill.waitFor() != 0) {
                throw new IllegalStateException("kill -" + name + " " + process.pid() + " failed");
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        if (process != null && process.isAlive()) {
            resume(); // a paused server would not see SIGTERM until it runs again
            process.destroy();
            try {
                if (!process.waitFor(5, java.util.concurrent.TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    public static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    static void awaitPort(int port, Process process) {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("redis-server on port " + port + " exited with " + process.exitValue());
            }
            try (Socket s = new Socket("127.0.0.1", port)) {
                return;
            } catch (IOException notYet) {
                java.util.concurrent.locks.LockSupport.parkNanos(20_000_000L);
            }
        }
        throw new IllegalStateException("redis-server did not open port " + port);
    }
}
