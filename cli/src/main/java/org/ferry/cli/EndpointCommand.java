package org.ferry.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code ferry endpoint}: the group of endpoint commands (add, create, list, show, update, remove, activate, deactivate, revoke, server). */
@Command(
        name = "endpoint",
        mixinStandardHelpOptions = true,
        versionProvider = FerryVersion.class,
        description = "Manage endpoints: named GridFTP servers (URL and login) Ferry can move data " + "between.",
        subcommands = {
            EndpointAddCommand.class,
            EndpointCreateCommand.class,
            EndpointListCommand.class,
            EndpointShowCommand.class,
            EndpointUpdateCommand.class,
            EndpointRemoveCommand.class,
            EndpointActivateCommand.class,
            EndpointDeactivateCommand.class,
            EndpointRevokeCommand.class,
            EndpointServerCommand.class
        },
        footerHeading = "%nExample:%n",
        footer = "  ferry endpoint add admin#a --url ftp://127.0.0.1:2811 && ferry endpoint list")
public final class EndpointCommand implements Runnable {
    @Spec
    private CommandSpec spec;

    /** Without a subcommand there is nothing to do: a usage error (exit code 2). */
    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "Missing required subcommand");
    }
}
