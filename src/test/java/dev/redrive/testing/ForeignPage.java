package dev.redrive.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Collectors;

import com.sun.net.httpserver.HttpServer;

/**
 * A hostile page on another port of the same host as the boot: the same site (the browser sends
 * it the service's SameSite=Strict cookies and cached Basic credentials), another origin. It fires
 * the given requests at once, each a {@code fetch(url, init)} as a page can send them without a
 * preflight, and sets its title to "sent" when all have been answered (their answers are opaque to it).
 */
public final class ForeignPage {

    private ForeignPage() {
    }

    /** One request of the page: {@code init} is the fetch's options object, as JavaScript. */
    public record Fetch(String url, String init) {

        /** A no-cors POST with the browser's credentials and, when not null, a text/plain body. */
        public static Fetch post(String url, String body) {
            return new Fetch(url, "{method: 'POST', mode: 'no-cors', credentials: 'include'"
                    + (body == null ? "" : ", body: " + quoted(body)) + "}");
        }

        private static String quoted(String text) {
            return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'";
        }
    }

    /** Opens the page in {@code browser} and returns once every request has been sent and answered. */
    public static void visit(Browser browser, List<Fetch> fetches) {
        String calls = fetches.stream().map(f -> "fetch('" + f.url() + "', " + f.init() + ").catch(e => e)")
                .collect(Collectors.joining(", "));
        byte[] page = ("<!DOCTYPE html><title>waiting</title><script>Promise.all([" + calls
                + "]).then(() => document.title = 'sent');</script>").getBytes(StandardCharsets.UTF_8);
        HttpServer other;
        try {
            other = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        other.createContext("/", exchange -> {
            exchange.getResponseHeaders().add("Content-Type", "text/html; charset=utf-8");
            exchange.sendResponseHeaders(200, page.length);
            try (var body = exchange.getResponseBody()) {
                body.write(page);
            }
        });
        other.start();
        try {
            browser.open("http://localhost:" + other.getAddress().getPort() + "/");
            browser.until(d -> "sent".equals(d.getTitle()));
        } finally {
            other.stop(0);
        }
    }
}
