package dev.redrive.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP proxy in front of a redis-server that can freeze the connections it holds: a frozen one
 * stays open and takes what is sent, but passes nothing on either way, as behind a middlebox that
 * lost the connection's state. Connections opened after a freeze pass everything.
 */
public final class FreezingProxy implements AutoCloseable {

    private final ServerSocket server;
    private final int target;
    private final List<Link> links = new CopyOnWriteArrayList<>();

    public FreezingProxy(int targetPort) {
        this.target = targetPort;
        try {
            server = new ServerSocket(0, 128, InetAddress.getLoopbackAddress());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        Thread accept = new Thread(this::accept, "freezing-proxy");
        accept.setDaemon(true);
        accept.start();
    }

    public int port() {
        return server.getLocalPort();
    }

    public String url() {
        return "redis://127.0.0.1:" + port();
    }

    /** Freezes every connection open now; returns how many. */
    public int freeze() {
        int n = 0;
        for (Link link : links) {
            if (!link.closed) {
                link.frozen = true;
                n++;
            }
        }
        return n;
    }

    /** Connections open now that are frozen. */
    public long frozenOpen() {
        return links.stream().filter(l -> l.frozen && !l.closed).count();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                Socket upstream = new Socket(InetAddress.getLoopbackAddress(), target);
                Link link = new Link(client, upstream);
                links.add(link);
                link.pump(client, upstream);
                link.pump(upstream, client);
            } catch (IOException e) {
                // closed, or the target refused: the client sees its connection end
            }
        }
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        links.forEach(Link::close);
    }

    private static final class Link {
        final Socket a;
        final Socket b;
        volatile boolean frozen;
        volatile boolean closed;

        Link(Socket a, Socket b) {
            this.a = a;
            this.b = b;
        }

        void pump(Socket from, Socket to) {
            Thread t = new Thread(() -> {
                byte[] buffer = new byte[16384];
                try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                    int n;
                    while ((n = in.read(buffer)) >= 0) {
                        if (!frozen) {
                            out.write(buffer, 0, n);
                            out.flush();
                        }
                        // frozen: what arrives is taken and dropped, never answered
                    }
                } catch (IOException ended) {
                    // one side went away
                }
                close();
            }, "freezing-proxy-pump");
            t.setDaemon(true);
            t.start();
        }

        void close() {
            closed = true;
            try {
                a.close();
            } catch (IOException ignored) {
                // closing anyway
            }
            try {
                b.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }
}
