package org.ferry.cli.output;

/** How commands print their results ({@code -F/--format}). */
public enum OutputFormat {
    /** Aligned tables and {@code Key: value} records for people (the default). */
    TEXT,
    /** The API's JSON answer, pretty-printed, for programs. */
    JSON,
    /** Tab-separated values without headers, one record per line, for shell scripts. */
    UNIX
}
