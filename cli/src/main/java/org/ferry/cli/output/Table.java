package org.ferry.cli.output;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A table of strings. In {@link OutputFormat#TEXT} it prints globus-cli style: a header row,
 * a dashed rule, columns padded and separated by {@code " | "}; in {@link OutputFormat#UNIX}
 * it prints the rows only, tab-separated.
 */
public final class Table {
    private final List<String> headers;
    private final List<List<String>> rows = new ArrayList<>();

    /**
     * Creates an empty table.
     *
     * @param headers the column titles
     */
    public Table(String... headers) {
        this.headers = List.of(headers);
    }

    /**
     * Adds a row.
     *
     * @param cells one cell per column (null prints as empty)
     * @return this table
     * @throws IllegalArgumentException when the number of cells differs from the headers'
     */
    public Table row(String... cells) {
        if (cells.length != headers.size()) {
            throw new IllegalArgumentException("expected " + headers.size() + " cells");
        }
        rows.add(Arrays.stream(cells).map(c -> c == null ? "" : c).toList());
        return this;
    }

    /**
     * Prints the table.
     *
     * @param out where to print
     * @param format {@code TEXT} or {@code UNIX} (JSON callers print the API's answer instead)
     */
    public void print(PrintWriter out, OutputFormat format) {
        if (format == OutputFormat.UNIX) {
            rows.forEach(row -> out.println(String.join("\t", row)));
            out.flush();
            return;
        }
        int[] widths = new int[headers.size()];
        for (int i = 0; i < widths.length; i++) {
            widths[i] = headers.get(i).length();
            for (List<String> row : rows) {
                widths[i] = Math.max(widths[i], row.get(i).length());
            }
        }
        out.println(line(headers, widths));
        List<String> rule = new ArrayList<>();
        for (int width : widths) {
            rule.add("-".repeat(width));
        }
        out.println(line(rule, widths));
        rows.forEach(row -> out.println(line(row, widths)));
        out.flush();
    }

    private static String line(List<String> cells, int[] widths) {
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < cells.size(); i++) {
            if (i > 0) {
                line.append(" | ");
            }
            boolean last = i == cells.size() - 1;
            // No padding after the last column: trailing blanks only get in the way of grep and diff.
            line.append(last ? cells.get(i) : pad(cells.get(i), widths[i]));
        }
        return line.toString();
    }

    private static String pad(String text, int width) {
        return text + " ".repeat(width - text.length());
    }
}
