package org.ferry.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code ferry timer}: recurring transfers (create, list, show, update, pause, resume, delete). */
@Command(
        name = "timer",
        mixinStandardHelpOptions = true,
        versionProvider = FerryVersion.class,
        description = "Manage timers: a transfer submitted as a new task on a schedule (an interval or a cron"
                + " expression in a time zone).",
        subcommands = {
            TimerCreateCommand.class,
            TimerListCommand.class,
            TimerShowCommand.class,
            TimerUpdateCommand.class,
            TimerPauseCommand.class,
            TimerResumeCommand.class,
            TimerDeleteCommand.class
        },
        footerHeading = "%nExample:%n",
        footer =
                "  ferry timer create -r lab#scope:/out hpc#scratch:/in --cron '0 0 2 * * ?' --time-zone Europe/Berlin")
public final class TimerCommand implements Runnable {
    @Spec
    private CommandSpec spec;

    /** Without a subcommand there is nothing to do: a usage error (exit code 2). */
    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "Missing required subcommand");
    }
}
