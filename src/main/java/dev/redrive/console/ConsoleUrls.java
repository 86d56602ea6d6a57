package dev.redrive.console;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.StringJoiner;

/**
 * The console's stable URLs, spelt once: every page is a deep link (a filter, a cause, an entry,
 * a redrive) that alerts, the runbook and colleagues can point at.
 */
public final class ConsoleUrls {

    public static final String ROOT = "/console";

    private ConsoleUrls() {
    }

    /** A path segment: every character outside [A-Za-z0-9-._~] percent-encoded ({demo}:dlq is %7Bdemo%7D%3Adlq). */
    public static String segment(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20").replace("*", "%2A");
    }

    /** Whether a request path is the console's. */
    public static boolean under(String path) {
        return path.equals(ROOT) || path.startsWith(ROOT + "/");
    }

    public static String stream(String dlq) {
        return ROOT + "/dlq/" + segment(dlq);
    }

    public static String causes(String dlq) {
        return stream(dlq) + "/causes";
    }

    public static String entries(String dlq, Map<String, String> query) {
        return stream(dlq) + "/entries" + query(query);
    }

    /** The entries of one cause, newest first. */
    public static String causeEntries(String dlq, String fingerprint) {
        return entries(dlq, Map.of("fingerprint", fingerprint));
    }

    /** One cause on its stream's Causes page (its article's id), as proposals of it link back to it. */
    public static String cause(String dlq, String fingerprint) {
        return causes(dlq) + "#cause-" + segment(fingerprint);
    }

    public static String entry(String dlq, String id) {
        return stream(dlq) + "/entries/" + segment(id);
    }

    public static String redrive(String dlq, String task) {
        return stream(dlq) + "/redrives/" + segment(task);
    }

    public static String proposals(String dlq) {
        return stream(dlq) + "/proposals";
    }

    public static String proposal(String dlq, String id) {
        return proposals(dlq) + "/" + segment(id);
    }

    /** {@code ?a=1&b=2} of the non-empty values, in order; "" when none. */
    public static String query(Map<String, String> params) {
        StringJoiner q = new StringJoiner("&", "?", "");
        q.setEmptyValue("");
        params.forEach((name, value) -> {
            if (value != null && !value.isEmpty()) {
                q.add(segment(name) + "=" + segment(value));
            }
        });
        return q.toString();
    }

    /** A copy of {@code params} with {@code name} set to {@code value} (or removed when null). */
    public static Map<String, String> with(Map<String, String> params, String name, String value) {
        Map<String, String> copy = new LinkedHashMap<>(params);
        if (value == null) {
            copy.remove(name);
        } else {
            copy.put(name, value);
        }
        return copy;
    }
}
