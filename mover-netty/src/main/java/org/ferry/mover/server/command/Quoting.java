package org.ferry.mover.server.command;

/** Path quoting for 257 replies (RFC 959 appendix II: embedded quotes are doubled). */
final class Quoting {

    private Quoting() {}

    /** @return {@code "path"} with each {@code "} in path doubled */
    static String quote(String path) {
        return '"' + path.replace("\"", "\"\"") + '"';
    }
}
