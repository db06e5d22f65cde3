package org.ferry.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Collects {@link Result}s, prints one table per benchmark, and writes them all as
 * {@code results.csv} and {@code results.json} so that runs can be compared by a program.
 */
final class ResultTable {

    private final List<Result> results = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();

    /** Adds a row. */
    void add(Result result) {
        results.add(result);
    }

    /** Adds a free-text note printed under the tables and stored in the JSON (e.g. the load average). */
    void note(String note) {
        notes.add(note);
    }

    /** Prints the rows of one benchmark as a table. */
    void print(String benchmark, PrintStream out) {
        out.println();
        out.println("== " + benchmark + " ==");
        out.printf(
                Locale.ROOT,
                "%-44s %-9s %12s  %-40s %12s %8s %9s %4s%n",
                "scenario",
                "unit",
                "Ferry",
                "peer",
                "peer value",
                "ratio",
                "target",
                "met");
        for (Result r : results) {
            if (r.benchmark().equals(benchmark)) {
                out.printf(
                        Locale.ROOT,
                        "%-44s %-9s %12s  %-40s %12s %8s %9s %4s%n",
                        r.scenario(),
                        r.unit(),
                        number(r.ferry()),
                        r.peer(),
                        number(r.peerValue()),
                        number(r.ratio()),
                        r.targetText(),
                        r.met());
            }
        }
        out.flush();
    }

    /** Writes {@code results.csv} and {@code results.json} into {@code directory}. */
    void write(Path directory) throws IOException {
        Files.createDirectories(directory);
        StringBuilder csv = new StringBuilder("benchmark,scenario,unit,ferry,peer,peer_value,ratio,target,met\n");
        StringBuilder json = new StringBuilder("{\n  \"results\": [\n");
        for (int i = 0; i < results.size(); i++) {
            Result r = results.get(i);
            csv.append(String.join(
                            ",",
                            quoteCsv(r.benchmark()),
                            quoteCsv(r.scenario()),
                            quoteCsv(r.unit()),
                            number(r.ferry()),
                            quoteCsv(r.peer()),
                            number(r.peerValue()),
                            number(r.ratio()),
                            quoteCsv(r.targetText()),
                            r.met()))
                    .append('\n');
            json.append(String.format(
                    Locale.ROOT,
                    "    {\"benchmark\": %s, \"scenario\": %s, \"unit\": %s, "
                            + "\"ferry\": %s, \"peer\": %s, \"peerValue\": %s, \"ratio\": %s, \"target\": %s, "
                            + "\"lowerIsBetter\": %s, \"met\": %s}%s%n",
                    quoteJson(r.benchmark()),
                    quoteJson(r.scenario()),
                    quoteJson(r.unit()),
                    jsonNumber(r.ferry()),
                    quoteJson(r.peer()),
                    jsonNumber(r.peerValue()),
                    jsonNumber(r.ratio()),
                    jsonNumber(r.target()),
                    r.lowerIsBetter(),
                    quoteJson(r.met()),
                    i + 1 < results.size() ? "," : ""));
        }
        json.append("  ],\n  \"notes\": [");
        for (int i = 0; i < notes.size(); i++) {
            json.append(i == 0 ? "\n    " : ",\n    ").append(quoteJson(notes.get(i)));
        }
        json.append(notes.isEmpty() ? "]\n}\n" : "\n  ]\n}\n");
        Files.writeString(directory.resolve("results.csv"), csv, StandardCharsets.UTF_8);
        Files.writeString(directory.resolve("results.json"), json, StandardCharsets.UTF_8);
    }

    /** @return the notes so far */
    List<String> notes() {
        return List.copyOf(notes);
    }

    private static String number(double value) {
        if (Double.isNaN(value)) {
            return "n/a";
        }
        return Math.abs(value) >= 1000
                ? String.format(Locale.ROOT, "%.0f", value)
                : String.format(Locale.ROOT, "%.3g", value);
    }

    private static String jsonNumber(double value) {
        return Double.isNaN(value) ? "null" : String.format(Locale.ROOT, "%.6g", value);
    }

    private static String quoteCsv(String s) {
        return "\"" + s.replace("\"", "\"\"") + "\"";
    }

    private static String quoteJson(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
