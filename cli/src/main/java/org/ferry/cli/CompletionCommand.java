package org.ferry.cli;

import picocli.AutoComplete;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code ferry completion}: prints the bash/zsh completion script Picocli's {@link AutoComplete}
 * makes from the command definitions.
 */
@Command(
        name = "completion",
        mixinStandardHelpOptions = true,
        versionProvider = FerryVersion.class,
        description = "Print the bash/zsh completion script for ferry.",
        footerHeading = "%nExamples:%n",
        footer = {
            "  source <(ferry completion)                                  (this shell)",
            "  ferry completion > ~/.local/share/bash-completion/completions/ferry   (every shell)"
        })
public final class CompletionCommand implements Runnable {
    @Spec
    private CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().getOut().print(AutoComplete.bash("ferry", spec.root().commandLine()));
        spec.commandLine().getOut().flush();
    }
}
