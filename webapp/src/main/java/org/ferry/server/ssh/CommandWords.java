package org.ferry.server.ssh;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits the command an SSH client sends (RFC 4254 section 6.5 "exec": one string; OpenSSH's
 * {@code ssh} joins its arguments with spaces) into the words of an argv the way a POSIX shell
 * would quote them, and does nothing else a shell does: no variables, no globs, no redirection,
 * no command substitution. {@code 'single'} quotes keep everything literally; {@code "double"}
 * quotes keep everything except {@code \"} and {@code \\}; a backslash outside quotes keeps the
 * next character. Metacharacters such as {@code ;|&$`*} are ordinary characters of a word.
 */
final class CommandWords {

    private CommandWords() {}

    /**
     * @param command the command string
     * @return its words (empty for a blank string)
     * @throws IllegalArgumentException naming an unclosed quote or a trailing backslash
     */
    static List<String> split(String command) {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        boolean inWord = false;
        int i = 0;
        int n = command.length();
        while (i < n) {
            char c = command.charAt(i);
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
                if (inWord) {
                    words.add(word.toString());
                    word.setLength(0);
                    inWord = false;
                }
                i++;
            } else if (c == '\'') {
                int end = command.indexOf('\'', i + 1);
                if (end < 0) {
                    throw new IllegalArgumentException("unclosed single quote at column " + (i + 1));
                }
                word.append(command, i + 1, end);
                inWord = true;
                i = end + 1;
            } else if (c == '"') {
                int j = i + 1;
                while (true) {
                    if (j >= n) {
                        throw new IllegalArgumentException("unclosed double quote at column " + (i + 1));
                    }
                    char d = command.charAt(j);
                    if (d == '"') {
                        break;
                    }
                    if (d == '\\' && j + 1 < n && (command.charAt(j + 1) == '"' || command.charAt(j + 1) == '\\')) {
                        word.append(command.charAt(j + 1));
                        j += 2;
                    } else {
                        word.append(d);
                        j++;
                    }
                }
                inWord = true;
                i = j + 1;
            } else if (c == '\\') {
                if (i + 1 >= n) {
                    throw new IllegalArgumentException("a backslash ends the command");
                }
                word.append(command.charAt(i + 1));
                inWord = true;
                i += 2;
            } else {
                word.append(c);
                inWord = true;
                i++;
            }
        }
        if (inWord) {
            words.add(word.toString());
        }
        return words;
    }
}
