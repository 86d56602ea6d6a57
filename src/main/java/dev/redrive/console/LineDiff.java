package dev.redrive.console;

import java.util.ArrayList;
import java.util.List;

/**
 * A line diff of a field's old and new text, shown before a patched replay is sent: the longest
 * common subsequence of lines, so moved blocks read as removed and added. Bounded: texts of more
 * than {@link #MAX_LINES} lines are shown as all removed and all added rather than compared.
 */
public final class LineDiff {

    static final int MAX_LINES = 2000;

    /** One line of the diff: {@code ' '} kept, {@code '-'} removed, {@code '+'} added. */
    public record Line(char op, String text) {

        public String kind() {
            return op == '+' ? "added" : op == '-' ? "removed" : "kept";
        }
    }

    private LineDiff() {
    }

    public static List<Line> of(String before, String after) {
        String[] a = before.split("\n", -1);
        String[] b = after.split("\n", -1);
        List<Line> out = new ArrayList<>();
        if (a.length > MAX_LINES || b.length > MAX_LINES) {
            for (String line : a) {
                out.add(new Line('-', line));
            }
            for (String line : b) {
                out.add(new Line('+', line));
            }
            return out;
        }
        int[][] common = new int[a.length + 1][b.length + 1];
        for (int i = a.length - 1; i >= 0; i--) {
            for (int j = b.length - 1; j >= 0; j--) {
                common[i][j] = a[i].equals(b[j]) ? common[i + 1][j + 1] + 1 : Math.max(common[i + 1][j], common[i][j + 1]);
            }
        }
        int i = 0;
        int j = 0;
        while (i < a.length && j < b.length) {
            if (a[i].equals(b[j])) {
                out.add(new Line(' ', a[i++]));
                j++;
            } else if (common[i + 1][j] >= common[i][j + 1]) {
                out.add(new Line('-', a[i++]));
            } else {
                out.add(new Line('+', b[j++]));
            }
        }
        while (i < a.length) {
            out.add(new Line('-', a[i++]));
        }
        while (j < b.length) {
            out.add(new Line('+', b[j++]));
        }
        return out;
    }
}
