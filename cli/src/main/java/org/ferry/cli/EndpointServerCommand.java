package org.ferry.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code ferry endpoint server}: an endpoint's GridFTP servers (a logical endpoint over several
 * servers; sessions go to one and fail over to the next): list, add, update, remove.
 */
@Command(
        name = "server",
        mixinStandardHelpOptions = true,
        versionProvider = FerryVersion.class,
        description = "Manage an endpoint's GridFTP servers (all ftp:// or all gsiftp://, serving the same data).",
        subcommands = {
            EndpointServerListCommand.class,
            EndpointServerAddCommand.class,
            EndpointServerUpdateCommand.class,
            EndpointServerRemoveCommand.class
        },
        footerHeading = "%nExample:%n",
        footer = "  ferry endpoint server add site#grid --url gsiftp://dtn2.example.org:2811")
public final class EndpointServerCommand implements Runnable {
    @Spec
    private CommandSpec spec;

    /** Without a subcommand there is nothing to do: a usage error (exit code 2). */
    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "Missing required subcommand");
    }
}
