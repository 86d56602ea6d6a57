package dev.redrive.testing;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;

/**
 * A network namespace of a test's own, joined to the test's namespace by a veth pair, so a test can
 * cut the link between a service and its Redis ({@code ip link set ... down}) the way a partition
 * does: no FIN, no RST, packets simply stop. Needs {@code ip netns} (root, or CAP_NET_ADMIN); where
 * it is not permitted, {@link #open()} skips the test with a message that says so. {@link #close()}
 * stops what it started inside and deletes the namespace and the link, whatever happened.
 */
public final class NetnsLink implements AutoCloseable {

    private final String namespace;
    private final String outsideInterface;
    private final String insideInterface;
    private final String outside;
    private final String inside;
    private final List<Process> processes = new ArrayList<>();

    private NetnsLink(String tag, int subnet) {
        this.namespace = "redrive-" + tag;
        this.outsideInterface = "rdo" + tag;
        this.insideInterface = "rdi" + tag;
        int third = subnet / 64, fourth = (subnet % 64) * 4;
        this.outside = "10.231." + third + "." + (fourth + 1);
        this.inside = "10.231." + third + "." + (fourth + 2);
    }

    /** A new namespace and link, both ends up; skips the calling test where {@code ip netns} is not permitted. */
    public static NetnsLink open() {
        String tag = Long.toString(ProcessHandle.current().pid() % 100_000) + ThreadLocalRandom.current().nextInt(10);
        NetnsLink link = new NetnsLink(tag, ThreadLocalRandom.current().nextInt(256 * 64));
        String refused = link.ip("netns", "add", link.namespace);
        Assumptions.assumeTrue(refused == null, "skipped: this test needs 'ip netns' (root or CAP_NET_ADMIN) to "
                + "partition a network, and it was refused: " + refused);
        try {
            link.must("link", "add", link.outsideInterface, "type", "veth", "peer", "name", link.insideInterface);
            link.must("link", "set", link.insideInterface, "netns", link.namespace);
            link.must("addr", "add", link.outside + "/30", "dev", link.outsideInterface);
            link.must("link", "set", link.outsideInterface, "up");
            link.must("netns", "exec", link.namespace, "ip", "addr", "add", link.inside + "/30", "dev", link.insideInterface);
            link.must("netns", "exec", link.namespace, "ip", "link", "set", link.insideInterface, "up");
            link.must("netns", "exec", link.namespace, "ip", "link", "set", "lo", "up");
        } catch (RuntimeException e) {
            link.close();
            throw e;
        }
        return link;
    }

    /** The address of the namespace's end: what a server started {@link #start inside} binds to. */
    public String inside() {
        return inside;
    }

    /** Starts a command inside the namespace, its output appended to {@code log}; stopped by {@link #close()}. */
    public Process start(List<String> command, File log) {
        List<String> cmd = new ArrayList<>(List.of("ip", "netns", "exec", namespace));
        cmd.addAll(command);
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log)).start();
            processes.add(p);
            return p;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The partition: the link goes down, packets stop both ways (no reset reaches either side). */
    public void cut() {
        must("link", "set", outsideInterface, "down");
    }

    /** The link is back; connections that survived resume, new ones connect. */
    public void restore() {
        must("link", "set", outsideInterface, "up");
    }

    @Override
    public void close() {
        for (Process p : processes) {
            p.destroyForcibly();
            try {
                p.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        ip("link", "del", outsideInterface); // deletes its peer too
        ip("netns", "del", namespace);
    }

    private void must(String... args) {
        String failure = ip(args);
        if (failure != null) {
            throw new IllegalStateException("ip " + String.join(" ", args) + " failed: " + failure);
        }
    }

    /** Runs {@code ip args}; null when it worked, else why not. */
    private String ip(String... args) {
        List<String> cmd = new ArrayList<>(List.of("ip"));
        cmd.addAll(List.of(args));
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return "timed out";
            }
            return p.exitValue() == 0 ? null : out;
        } catch (IOException e) {
            return e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }
}
