package org.ferry.mover.server.popen;

import java.util.List;

/**
 * An approved program and its arguments, as it will run: {@code argv[0]} is the program's absolute
 * path from the allow list (whatever alias the client used), the rest are the client's arguments,
 * each passed to the program as one argument, never through a shell.
 *
 * @param argv the program's absolute path, then its arguments
 */
public record PopenCommand(List<String> argv) {

    /** @throws IllegalArgumentException for an empty argv or one with a NUL character */
    public PopenCommand {
        argv = List.copyOf(argv);
        if (argv.isEmpty()) {
            throw new IllegalArgumentException("empty argv");
        }
        for (String arg : argv) {
            if (arg.indexOf('\0') >= 0) {
                throw new IllegalArgumentException("argument with a NUL character");
            }
        }
    }

    /** @return the program's absolute path */
    public String program() {
        return argv.get(0);
    }

    @Override
    public String toString() {
        return String.join(" ", argv);
    }
}
