package org.ferry.cli.output;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One object's fields in order. In {@link OutputFormat#TEXT} it prints {@code Key:} padded to
 * the longest key, then the value; in {@link OutputFormat#UNIX} {@code key<TAB>value} lines.
 */
public final class Record {
    private final Map<String, String> fields = new LinkedHashMap<>();

    /**
     * Adds a field.
     *
     * @param key the label, e.g. {@code Task ID}
     * @param value the value (null prints as empty)
     * @return this record
     */
    public Record field(String key, String value) {
        fields.put(key, value == null ? "" : value);
        return this;
    }

    /**
     * Prints the record.
     *
     * @param out where to print
     * @param format {@code TEXT} or {@code UNIX}
     */
    public void print(PrintWriter out, OutputFormat format) {
        int width = fields.keySet().stream().mapToInt(String::length).max().orElse(0) + 1;
        fields.forEach((key, value) -> {
            if (format == OutputFormat.UNIX) {
                out.println(key + "\t" + value);
            } else {
                String label = key + ":";
                out.println(label + " ".repeat(width - label.length() + 1) + value);
            }
        });
        out.flush();
    }
}
