package dev.redrive.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The bench's pure helpers: its JSON lines, the figures it reads from replies and /proc, rounding, logging. */
final class Figures {

    private Figures() {
    }

    static String json(Map<String, Object> m) {
        StringBuilder b = new StringBuilder("{");
        m.forEach((k, v) -> {
            if (b.length() > 1) {
                b.append(',');
            }
            b.append('"').append(k).append("\":");
            if (v == null) {
                b.append("null");
            } else if (v instanceof Number || v instanceof Boolean) {
                b.append(v);
            } else {
                b.append('"').append(v.toString().replace("\\", "\\\\").replace("\"", "\\\"")).append('"');
            }
        });
        return b.append('}').toString();
    }

    static String jsonField(String body, String field) {
        Matcher m = Pattern.compile("\"" + field + "\"\\s*:\\s*\"?([^\",}]*)").matcher(body);
        return m.find() ? m.group(1) : null;
    }

    /** The value of the first Prometheus line that starts with {@code prefix}. */
    static Double metric(String text, String prefix) {
        for (String line : text.split("\n")) {
            if (line.startsWith(prefix)) {
                return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return null;
    }

    static double median(List<Map<String, Object>> runs, String key) {
        double[] v = runs.stream().mapToDouble(r -> ((Number) r.get(key)).doubleValue()).sorted().toArray();
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    /** A size field of /proc/PID/status (VmRSS:, VmHWM:) in MB. */
    static double rssOf(Path status, String field) throws IOException {
        for (String line : Files.readAllLines(status)) {
            if (line.startsWith(field)) {
                return round1(Long.parseLong(line.replaceAll("\\D", "")) / 1024.0);
            }
        }
        return -1;
    }

    static long infoLong(String info, String field) {
        for (String line : info.split("\r?\n")) {
            if (line.startsWith(field + ":")) {
                return Long.parseLong(line.substring(field.length() + 1).trim());
            }
        }
        return -1;
    }

    static String load() throws IOException {
        return Files.readString(Path.of("/proc/loadavg")).trim().replaceAll("^(\\S+ \\S+ \\S+).*", "$1");
    }

    /** An operator's password as Quarkus' embedded users take it: hex SHA-256 of "user:redrive:password". */
    static String userHash(String user, String password) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest((user + ":redrive:" + password).getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A line's fields in the order given: name, value, name, value, ... */
    static Map<String, Object> line(Object... namesAndValues) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i + 1 < namesAndValues.length; i += 2) {
            m.put((String) namesAndValues[i], namesAndValues[i + 1]);
        }
        return m;
    }

    static void check(boolean ok, String format, Object... args) {
        if (!ok) {
            throw new IllegalStateException(String.format(Locale.ROOT, format, args));
        }
    }

    static void log(String format, Object... args) {
        System.err.printf(Locale.ROOT, "[%tT] %s%n", System.currentTimeMillis(), String.format(Locale.ROOT, format, args));
    }

    static double round1(double v) {
        return Math.round(v * 10) / 10.0;
    }

    static double round2(double v) {
        return Math.round(v * 100) / 100.0;
    }

    static double round3(double v) {
        return Math.round(v * 1000) / 1000.0;
    }
}
