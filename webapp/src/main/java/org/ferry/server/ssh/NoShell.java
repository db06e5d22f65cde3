package org.ferry.server.ssh;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import org.apache.sshd.server.Environment;
import org.apache.sshd.server.ExitCallback;
import org.apache.sshd.server.channel.ChannelSession;
import org.apache.sshd.server.command.Command;

/**
 * What an SSH client that asks for a shell gets: one line saying there is none and how to run a
 * command, and exit code 2 (a usage error, as the CLI's).
 */
final class NoShell implements Command {

    private final String example;
    private OutputStream err;
    private ExitCallback exit;

    /** @param example an example command line for the message */
    NoShell(String example) {
        this.example = example;
    }

    @Override
    public void setInputStream(InputStream in) {}

    @Override
    public void setOutputStream(OutputStream out) {}

    @Override
    public void setErrorStream(OutputStream err) {
        this.err = err;
    }

    @Override
    public void setExitCallback(ExitCallback callback) {
        this.exit = callback;
    }

    @Override
    public void start(ChannelSession channel, Environment env) throws IOException {
        // a terminal (ssh -t, the default without a command) needs \r\n
        err.write(
                ("This is Ferry's command line; there is no shell. Give a ferry command, e.g.\r\n  " + example + "\r\n")
                        .getBytes(StandardCharsets.UTF_8));
        err.flush();
        exit.onExit(FerryCommand.EXIT_USAGE);
    }

    @Override
    public void destroy(ChannelSession channel) {}
}
