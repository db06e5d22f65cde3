package org.ferry.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a {@code --batch} file: one item per line, words split as a shell would (single and
 * double quotes, backslash escapes), blank lines and lines starting with {@code #} ignored.
 */
public final class BatchLines {

    /**
     * One line's words.
     *
     * @param number the line number, from 1
     * @param words the words
     */
    public record Line(int number, List<String> words) {}

    private BatchLines() {}

    /**
     * @param reader the file or standard input
     * @return the lines that hold words
     * @throws IOException on a read failure
     * @throws IllegalArgumentException naming the line of an unclosed quote
     */
    public static List<Line> read(BufferedReader reader) throws IOException {
        List<Line> lines = new ArrayList<>();
        String text;
        int number = 0;
        while ((text = reader.readLine()) != null) {
            number++;
            String trimmed = text.strip();
            if (trimmed.isEmpty() || trimmed.startsWith("#")) {
                continue;
            }
            lines.add(new Line(number, words(trimmed, number)));
        }
        return lines;
    }

    static List<String> words(String line, int number) {
        List<String> words = new ArrayList<>();
        StringBuilder word = null;
        char quote = 0;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else if (c == '\\' && quote == '"' && i + 1 < line.length()) {
                    word.append(line.charAt(++i));
                } else {
                    word.append(c);
                }
            } else if (Character.isWhitespace(c)) {
                if (word != null) {
                    words.add(word.toString());
                    word = null;
                }
            } else {
                if (word == null) {
                    word = new StringBuilder();
                }
                if (c == '\'' || c == '"') {
                    quote = c;
                } else if (c == '\\' && i + 1 < line.length()) {
                    word.append(line.charAt(++i));
                } else {
                    word.append(c);
                }
            }
        }
        if (quote != 0) {
            throw new IllegalArgumentException("line " + number + ": unclosed " + quote + " quote");
        }
        if (word != null) {
            words.add(word.toString());
        }
        return words;
    }
}
