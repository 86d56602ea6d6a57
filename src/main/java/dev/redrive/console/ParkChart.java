package dev.redrive.console;

import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.stream.Collectors;

import dev.redrive.deadletter.ParksPerHour;

/**
 * A small bar chart of parks per hour, drawn here as SVG so a page needs no script for it (the
 * console's CSP allows none inline, nor inline styles): shape in attributes, colour from the page
 * ({@code currentColor} and console.css), so it reads in light and dark. Its label and each bar's
 * title say the numbers, for screen readers and for a pointer held over a bar.
 */
public final class ParkChart {

    static final int BAR_WIDTH = 8;
    static final int GAP = 2;
    /** Height of the tallest bar; the busiest hour of the window gets it. */
    static final int PLOT_HEIGHT = 36;
    static final int WIDTH = ParksPerHour.HOURS * (BAR_WIDTH + GAP);
    /** Room under the axis for the hours at its ends. */
    static final int HEIGHT = PLOT_HEIGHT + 14;

    private static final DateTimeFormatter HOUR = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:00").withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:00").withZone(ZoneOffset.UTC);

    private ParkChart() {
    }

    /** The chart of {@code parks}, {@code of} naming what parked (a stream or a cause) in its label. */
    public static String svg(String of, ParksPerHour parks) {
        List<Long> counts = parks.counts();
        long most = counts.stream().mapToLong(Long::longValue).max().orElse(0);
        String label = label(of, parks, most);
        StringBuilder svg = new StringBuilder(2048).append("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"park-chart")
                .append(most == 0 ? " empty" : "").append("\" viewBox=\"0 0 ").append(WIDTH).append(' ').append(HEIGHT)
                .append("\" width=\"").append(WIDTH).append("\" height=\"").append(HEIGHT)
                .append("\" role=\"img\" aria-label=\"").append(escape(label)).append("\"><title>").append(escape(label))
                .append("</title>");
        svg.append("<line class=\"axis\" x1=\"0\" y1=\"").append(PLOT_HEIGHT + 1).append("\" x2=\"").append(WIDTH)
                .append("\" y2=\"").append(PLOT_HEIGHT + 1).append("\" stroke=\"currentColor\" stroke-opacity=\"0.4\"/>");
        // Where the window starts, and its end: enough to line a spike up with a deploy; each bar's title has its hour.
        svg.append("<text class=\"hours\" x=\"0\" y=\"").append(HEIGHT - 2).append("\" font-size=\"10\" fill=\"currentColor\" "
                + "aria-hidden=\"true\">").append(CLOCK.format(parks.from())).append(" UTC</text><text class=\"hours\" x=\"")
                .append(WIDTH).append("\" y=\"").append(HEIGHT - 2).append("\" font-size=\"10\" fill=\"currentColor\" "
                        + "text-anchor=\"end\" aria-hidden=\"true\">now</text>");
        for (int h = 0; h < counts.size(); h++) {
            long n = counts.get(h);
            if (n == 0) {
                continue;
            }
            int height = height(n, most);
            svg.append("<rect class=\"bar\" data-count=\"").append(n).append("\" x=\"").append(h * (BAR_WIDTH + GAP))
                    .append("\" y=\"").append(PLOT_HEIGHT - height).append("\" width=\"").append(BAR_WIDTH)
                    .append("\" height=\"").append(height).append("\" fill=\"currentColor\"><title>")
                    .append(HOUR.format(parks.from().plus(h, ChronoUnit.HOURS))).append(" UTC: ").append(n)
                    .append(n == 1 ? " park" : " parks").append("</title></rect>");
        }
        return svg.append("</svg>").toString();
    }

    /** A bar's height: proportional to the busiest hour's, and never so small that a park disappears. */
    static int height(long n, long most) {
        return (int) Math.max(1, Math.round((double) n * PLOT_HEIGHT / most));
    }

    private static String label(String of, ParksPerHour parks, long most) {
        String since = HOUR.format(parks.from()) + " UTC";
        if (most == 0) {
            return "No parks of " + of + " in the last " + ParksPerHour.HOURS + " hours (since " + since + ")";
        }
        return parks.total() + (parks.total() == 1 ? " park of " : " parks of ") + of + " in the last " + ParksPerHour.HOURS + " hours, per hour since "
                + since + ": " + parks.counts().stream().map(String::valueOf).collect(Collectors.joining(" "));
    }

    /** Text for SVG markup: in an attribute or between tags alike. */
    static String escape(String text) {
        StringBuilder out = new StringBuilder(text.length() + 16);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }
}
