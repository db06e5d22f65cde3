package org.ferry.mover.client;

import java.util.List;

/**
 * One control channel reply (RFC 959 section 4.2): a three-digit code and its text lines. A
 * multi-line reply keeps every line as received, including lines in between that do not start with
 * the code (e.g. the {@code " Timestamp: ..."} lines of a 112 performance marker).
 *
 * @param code the reply code, 100..599 (6xx protected replies are not handled here)
 * @param lines the raw lines without CRLF; the first starts with the code
 */
public record FtpReply(int code, List<String> lines) {

    /** @throws IllegalArgumentException if there are no lines */
    public FtpReply {
        lines = List.copyOf(lines);
        if (lines.isEmpty()) {
            throw new IllegalArgumentException("a reply has at least one line");
        }
    }

    /** @return true for 1xx, a preliminary reply that a final one follows (150, 125, 111, 112) */
    public boolean isPreliminary() {
        return code >= 100 && code < 200;
    }

    /** @return true for 2xx */
    public boolean isPositiveCompletion() {
        return code >= 200 && code < 300;
    }

    /** @return true for 3xx (e.g. 331 after USER) */
    public boolean isPositiveIntermediate() {
        return code >= 300 && code < 400;
    }

    /** @return the text of the first line after {@code "NNN "} or {@code "NNN-"} */
    public String firstLineText() {
        String first = lines.get(0);
        return first.length() > 4 ? first.substring(4) : "";
    }

    /** @return all lines joined by newlines, the code prefixes of the first and last lines removed */
    public String text() {
        StringBuilder text = new StringBuilder(firstLineText());
        for (int i = 1; i < lines.size(); i++) {
            String line = lines.get(i);
            if (i == lines.size() - 1 && line.length() >= 3 && line.startsWith(String.valueOf(code))) {
                line = line.length() > 4 ? line.substring(4) : "";
            } else if (line.length() > 4 && line.startsWith(code + "-")) {
                line = line.substring(4);
            }
            text.append('\n').append(line);
        }
        return text.toString();
    }

    @Override
    public String toString() {
        return String.join("\n", lines);
    }
}
