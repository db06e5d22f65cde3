package org.ferry.mover.protocol;

import java.util.List;
import java.util.Objects;

/**
 * A control channel reply (RFC 959 section 4.2): a three-digit code and one or more text lines.
 * A single line is sent as {@code NNN text}; several lines are sent the way globus-gridftp-server
 * writes them: the first line {@code NNN-text}, further lines as given (GridFTP body lines start
 * with a space, e.g. perf markers, GFD.020), the last line {@code NNN text}.
 *
 * @param code reply code, 100..659
 * @param lines text lines without CRLF; at least one
 */
public record FtpReply(int code, List<String> lines) {

    /** @throws IllegalArgumentException if the code is out of range or there are no lines */
    public FtpReply {
        if (code < 100 || code > 659) {
            throw new IllegalArgumentException("reply code out of range: " + code);
        }
        lines = List.copyOf(lines);
        if (lines.isEmpty()) {
            throw new IllegalArgumentException("a reply needs at least one line");
        }
    }

    /**
     * @param code reply code
     * @param text the single line of text
     * @return a single-line reply
     */
    public static FtpReply of(int code, String text) {
        return new FtpReply(code, List.of(Objects.requireNonNull(text, "text")));
    }

    /**
     * A multi-line reply {@code NNN-first} / body lines / {@code NNN last}.
     *
     * @param code reply code
     * @param first text of the first line
     * @param body middle lines, sent verbatim (should start with a space, RFC 959 section 4.2)
     * @param last text of the last line, e.g. {@code End.}
     * @return the reply
     */
    public static FtpReply multiline(int code, String first, List<String> body, String last) {
        List<String> all = new java.util.ArrayList<>(body.size() + 2);
        all.add(first);
        all.addAll(body);
        all.add(last);
        return new FtpReply(code, all);
    }

    /** @return the reply as sent on the wire, every line ending CRLF */
    public String toWire() {
        StringBuilder sb = new StringBuilder();
        if (lines.size() == 1) {
            sb.append(code).append(' ').append(sanitize(lines.get(0))).append("\r\n");
            return sb.toString();
        }
        sb.append(code).append('-').append(sanitize(lines.get(0))).append("\r\n");
        for (int i = 1; i < lines.size() - 1; i++) {
            String line = sanitize(lines.get(i));
            // a body line must not look like a final line (RFC 959 section 4.2)
            if (line.length() >= 4 && Character.isDigit(line.charAt(0)) && line.charAt(3) == ' ') {
                line = " " + line;
            }
            sb.append(line).append("\r\n");
        }
        sb.append(code).append(' ').append(sanitize(lines.get(lines.size() - 1))).append("\r\n");
        return sb.toString();
    }

    private static String sanitize(String text) {
        return text.replace('\r', ' ').replace('\n', ' ');
    }

    @Override
    public String toString() {
        return toWire().stripTrailing();
    }
}
