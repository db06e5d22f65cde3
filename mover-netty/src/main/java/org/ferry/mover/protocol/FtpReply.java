package org.ferry.mover.protocol;

import java.util.List;
import java.util.Objects;

/**
 * A control channel reply (RFC 959 section 4.2), the same for the server that sends it and the
 * client that reads it: a three-digit code and one or more text lines, without the code prefixes of
 * the wire. A single line is sent as {@code NNN text}; several lines are sent the way
 * globus-gridftp-server writes them: the first line {@code NNN-text}, further lines as given
 * (GridFTP body lines start with a space, e.g. perf markers, GFD.020 "Performance Monitoring"),
 * the last line {@code NNN text}. {@link #fromWire} reads such lines back.
 *
 * @param code reply code, 100..699 (6xx: the protected replies of RFC 2228 section 4)
 * @param lines text lines without CRLF and without the code prefixes of the first and last lines;
 *     at least one
 */
public record FtpReply(int code, List<String> lines) {

    /** @throws IllegalArgumentException if the code is out of range or there are no lines */
    public FtpReply {
        if (code < 100 || code > 699) {
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

    /**
     * Reads a reply from its wire lines (RFC 959 section 4.2): the code from the first line, whose
     * {@code NNN-} or {@code NNN } prefix goes, as does the {@code NNN } (or bare {@code NNN}) of the
     * last line of a multi-line reply and the {@code NNN-} some servers put before every line in
     * between (with this reply's code only); other lines are kept as received.
     *
     * @param wireLines the lines without CRLF; the first starts with three digits, 1 to 6 first
     * @return the reply
     * @throws IllegalArgumentException if the first line has no reply code
     */
    public static FtpReply fromWire(List<String> wireLines) {
        if (wireLines.isEmpty()) {
            throw new IllegalArgumentException("a reply has at least one line");
        }
        String first = wireLines.get(0);
        if (first.length() < 3
                || first.charAt(0) < '1'
                || first.charAt(0) > '6'
                || !isDigit(first.charAt(1))
                || !isDigit(first.charAt(2))) {
            throw new IllegalArgumentException("reply line without a code: " + first);
        }
        int code = Integer.parseInt(first.substring(0, 3));
        List<String> texts = new java.util.ArrayList<>(wireLines.size());
        texts.add(first.length() > 4 ? first.substring(4) : "");
        for (int i = 1; i < wireLines.size(); i++) {
            String line = wireLines.get(i);
            boolean last = i == wireLines.size() - 1;
            if (last && line.startsWith(first.substring(0, 3)) && (line.length() == 3 || line.charAt(3) == ' ')) {
                line = line.length() > 4 ? line.substring(4) : "";
            } else if (!last && line.length() > 4 && line.startsWith(first.substring(0, 3) + "-")) {
                line = line.substring(4);
            }
            texts.add(line);
        }
        return new FtpReply(code, texts);
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
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

    /** @return the text of the first line */
    public String firstLineText() {
        return lines.get(0);
    }

    /** @return all text lines joined by newlines */
    public String text() {
        return String.join("\n", lines);
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
        sb.append(code)
                .append(' ')
                .append(sanitize(lines.get(lines.size() - 1)))
                .append("\r\n");
        return sb.toString();
    }

    private static String sanitize(String text) {
        return text.replace('\r', ' ').replace('\n', ' ');
    }

    /** @return the wire lines joined by newlines, without CR (for messages and logs) */
    @Override
    public String toString() {
        return toWire().replace("\r\n", "\n").stripTrailing();
    }
}
