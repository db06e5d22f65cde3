package org.ferry.mover.app;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code ferry-gridftp enable-sshftp}: makes this host the remote side of {@code sshftp://} with
 * Ferry's server, as {@code globus-gridftp-server-enable-sshftp} does with globus's: writes the
 * script that sshftp clients run through ssh ({@code /etc/grid-security/sshftp}, or with
 * {@code --nonroot} the user's {@code ~/.globus/sshftp}; globus-url-copy's {@code gridftp-ssh} runs
 * the first of those that exists), which execs {@code ferry-gridftp --ssh} with the options given
 * after {@code --}. Exit codes: 0 written, 1 the file exists (without {@code --force}) or cannot be
 * written.
 */
@Command(
        name = "enable-sshftp",
        mixinStandardHelpOptions = true,
        description = "Write the sshftp remote command (/etc/grid-security/sshftp) that runs ferry-gridftp --ssh;"
                + " options after -- go on its command line, e.g. -- --popen-allow tar:/bin/tar.")
final class EnableSshftpCommand implements Callable<Integer> {

    /** Where globus-url-copy's gridftp-ssh looks after the user's own ~/.globus/sshftp. */
    static final Path SYSTEM_SCRIPT = Path.of("/etc/grid-security/sshftp");

    @Spec
    private CommandLine.Model.CommandSpec spec;

    @Option(names = "--out", paramLabel = "FILE", description = "Write here instead.")
    private Path out;

    @Option(names = "--nonroot", description = "Write ~/.globus/sshftp (for this user only).")
    private boolean nonroot;

    @Option(names = "--force", description = "Overwrite an existing file.")
    private boolean force;

    @Parameters(paramLabel = "OPTION", description = "More ferry-gridftp options for the sessions.")
    private List<String> options = new ArrayList<>();

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        Path target = out != null
                ? out
                : nonroot ? Path.of(System.getProperty("user.home"), ".globus", "sshftp") : SYSTEM_SCRIPT;
        try {
            Files.createDirectories(target.toAbsolutePath().getParent());
            byte[] script = script(launcher(), options).getBytes(StandardCharsets.UTF_8);
            if (force) {
                Files.write(target, script);
            } else {
                Files.write(target, script, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            }
            Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rwxr-xr-x"));
        } catch (FileAlreadyExistsException e) {
            err.println("ferry-gridftp enable-sshftp: " + target + " exists; --force overwrites it");
            return 1;
        } catch (IOException | UnsupportedOperationException e) {
            err.println("ferry-gridftp enable-sshftp: cannot write " + target + ": " + e.getMessage());
            return 1;
        }
        spec.commandLine().getOut().println("Wrote " + target + ".");
        spec.commandLine().getOut().flush();
        return 0;
    }

    /**
     * @return the command that starts ferry-gridftp: the launcher script that started this JVM
     *     (bin/ferry-gridftp sets {@code ferry.gridftp.launcher}), else {@code java -jar} this jar
     */
    static List<String> launcher() {
        String script = System.getProperty("ferry.gridftp.launcher");
        if (script != null && Files.isExecutable(Path.of(script))) {
            return List.of(Path.of(script).toAbsolutePath().toString());
        }
        String jar;
        try {
            jar = Path.of(FerryGridFtpMain.class
                            .getProtectionDomain()
                            .getCodeSource()
                            .getLocation()
                            .toURI())
                    .toString();
        } catch (java.net.URISyntaxException | RuntimeException e) {
            throw new IllegalStateException("cannot tell where ferry-gridftp is installed: " + e.getMessage(), e);
        }
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return List.of(java, "-jar", jar);
    }

    /**
     * @param launcher the command that starts ferry-gridftp
     * @param options more options for {@code --ssh}
     * @return the script's text
     */
    static String script(List<String> launcher, List<String> options) {
        StringBuilder command = new StringBuilder("exec");
        for (String word : launcher) {
            command.append(' ').append(quote(word));
        }
        command.append(" --ssh");
        for (String option : options) {
            command.append(' ').append(quote(option));
        }
        return "#!/bin/sh\n"
                + "# Written by ferry-gridftp enable-sshftp. sshftp:// clients (globus-url-copy, Ferry) run this\n"
                + "# through ssh as the logged-in user; it serves their session on standard input and output.\n"
                + command + "\n";
    }

    /** @return {@code word} single-quoted for sh, unless it needs no quotes */
    static String quote(String word) {
        if (word.matches("[A-Za-z0-9_./:=,+@%-]+")) {
            return word;
        }
        return "'" + word.replace("'", "'\\''") + "'";
    }
}
