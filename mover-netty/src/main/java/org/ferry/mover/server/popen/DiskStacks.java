package org.ferry.mover.server.popen;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.ferry.mover.server.pi.FtpException;

/**
 * Which stacks a server accepts, for {@code SITE SETDISKSTACK} (file system side) and {@code SITE
 * SETNETSTACK} (data channel side), the commands globus-url-copy sends for {@code -fsstack} /
 * {@code -src-pipe} / {@code -dst-pipe} and {@code -dcstack} (globus_ftp_client_state.c). Ferry's
 * storage and data channels are fixed: a disk stack may name {@code file} and {@code ordering}
 * (what Ferry always does: MODE E blocks are written at their offsets) and, when the allow list is
 * not empty, one {@code popen} with an allowed program; a data channel stack may name {@code tcp}
 * and {@code gsi} (DCAU and PROT decide what the data channels do). Anything else is refused with
 * {@code 500} naming the driver or program, as globus-gridftp-server refuses what its
 * {@code -fs-whitelist}, {@code -dc-whitelist} and {@code -popen-whitelist} leave out.
 */
public final class DiskStacks {

    private static final Set<String> DISK_DRIVERS = Set.of("file", "ordering", "popen");
    private static final Set<String> NET_DRIVERS = Set.of("tcp", "gsi");
    private static final Set<String> POPEN_OPTIONS = Set.of("argv", "pass_env");

    private DiskStacks() {}

    /**
     * Approves a disk stack.
     *
     * @param text the argument of {@code SITE SETDISKSTACK}
     * @param policy the server's popen settings
     * @return the program to run for the session's next transfers, or empty for plain files
     * @throws FtpException 500 for a malformed stack, a driver Ferry does not have, popen while it is
     *     off, a program not on the allow list (named in the reply) or not executable, a missing or
     *     empty {@code argv}
     */
    public static Optional<PopenCommand> approveDiskStack(String text, PopenPolicy policy) throws FtpException {
        DriverStack stack = parse(text, "filesystem");
        PopenCommand command = null;
        for (DriverStack.Driver driver : stack.drivers()) {
            if (!DISK_DRIVERS.contains(driver.name())) {
                throw refused(
                        "filesystem",
                        "driver '" + driver.name() + "' is not available on this server" + " (available: file, ordering"
                                + (policy.enabled() ? ", popen" : "") + ")");
            }
            if (!driver.name().equals("popen")) {
                continue;
            }
            if (!policy.enabled()) {
                throw refused("filesystem", "the popen driver is not enabled on this server");
            }
            if (command != null) {
                throw refused("filesystem", "more than one popen driver");
            }
            command = approvePopen(driver, policy.allowList());
        }
        return Optional.ofNullable(command);
    }

    /**
     * Approves a data channel stack: Ferry's data channels are TCP, secured as DCAU and PROT say.
     *
     * @param text the argument of {@code SITE SETNETSTACK}
     * @throws FtpException 500 for a malformed stack or a driver other than {@code tcp} and
     *     {@code gsi}
     */
    public static void approveNetStack(String text) throws FtpException {
        for (DriverStack.Driver driver : parse(text, "data channel").drivers()) {
            if (!NET_DRIVERS.contains(driver.name())) {
                throw refused(
                        "data channel",
                        "driver '" + driver.name() + "' is not available on this server (available: tcp, gsi)");
            }
            if (!driver.options().isEmpty()) {
                throw refused("data channel", "driver '" + driver.name() + "' takes no options here");
            }
        }
    }

    private static DriverStack parse(String text, String side) throws FtpException {
        try {
            return DriverStack.parse(text);
        } catch (IllegalArgumentException e) {
            throw refused(side, e.getMessage());
        }
    }

    private static PopenCommand approvePopen(DriverStack.Driver driver, PopenAllowList allowList) throws FtpException {
        for (String key : driver.options().keySet()) {
            if (!POPEN_OPTIONS.contains(key)) {
                throw refused("filesystem", "popen option '" + key + "' is not supported (argv, pass_env)");
            }
        }
        String argv = driver.options().get("argv");
        if (argv == null) {
            throw refused("filesystem", "popen argv not supplied");
        }
        List<String> words = DriverStack.splitList(argv);
        if (words.isEmpty() || words.get(0).isEmpty()) {
            throw refused("filesystem", "popen argv names no program");
        }
        String name = words.get(0);
        Path program = allowList
                .resolve(name)
                .orElseThrow(
                        () -> refused("filesystem", "program '" + name + "' is not on this server's popen allow list"));
        if (!Files.isRegularFile(program) || !Files.isExecutable(program)) {
            throw refused(
                    "filesystem", "popen program '" + name + "' (" + program + ") is not an executable file here");
        }
        List<String> resolved = new java.util.ArrayList<>(words);
        resolved.set(0, program.toString());
        try {
            return new PopenCommand(resolved);
        } catch (IllegalArgumentException e) {
            throw refused("filesystem", "popen argv: " + e.getMessage());
        }
    }

    private static FtpException refused(String side, String why) {
        return new FtpException(500, "Setting " + side + " driver stack failed: " + why + ".");
    }
}
