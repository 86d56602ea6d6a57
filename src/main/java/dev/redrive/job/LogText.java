package dev.redrive.job;

/**
 * Text that someone outside redrive wrote, made fit for one log line: a caller's (a user name, a
 * tool argument, a path, a discard reason), a producer's (job fields, field names) or a
 * downstream's (a reply body in a park's reason). A log line is read by people and parsed by
 * collectors one line at a time, so a CR or LF in such text would let its writer add lines of
 * their own ("... INFO operator approved ..."). Every control character (C0, DEL, C1, and the
 * Unicode line and paragraph separators, which some viewers break on) is written as an escape
 * ({@code \n}, {@code \r}, {@code \t}, {@code \u001b}), and a backslash as {@code \\}, so the
 * line stays one line and still says exactly what was sent. The one owner: every log line that
 * prints such text passes it through here (the login WARN did this alone before, with '?').
 */
public final class LogText {

    /** Longest text a log line carries of one value; the rest is counted, not printed. */
    public static final int MAX_CHARS = 2000;

    private LogText() {
    }

    /** {@code text} escaped for a log line and cut at {@link #MAX_CHARS}; "null" for null. */
    public static String of(Object text) {
        return of(text, MAX_CHARS);
    }

    /** {@code text} escaped for a log line and cut at {@code max} characters. */
    public static String of(Object text, int max) {
        if (text == null) {
            return "null";
        }
        String s = text.toString();
        int end = Math.min(s.length(), max);
        StringBuilder out = null;
        for (int i = 0; i < end; i++) {
            char c = s.charAt(i);
            String escape = escape(c);
            if (escape != null && out == null) {
                out = new StringBuilder(end + 16).append(s, 0, i);
            }
            if (out != null) {
                out.append(escape != null ? escape : String.valueOf(c));
            }
        }
        String shown = out != null ? out.toString() : s.substring(0, end);
        return end < s.length() ? shown + "… (" + (s.length() - end) + " more characters)" : shown;
    }

    private static String escape(char c) {
        return switch (c) {
            case '\n' -> "\\n";
            case '\r' -> "\\r";
            case '\t' -> "\\t";
            case '\\' -> "\\\\";
            default -> c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == '\u2028' || c == '\u2029'
                    ? String.format("\\u%04x", (int) c) : null;
        };
    }
}
