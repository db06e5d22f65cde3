package org.ferry.mover.server.command;

import java.util.Optional;
import org.ferry.mover.server.multicast.MulticastPolicy;
import org.ferry.mover.server.multicast.MulticastStage;
import org.ferry.mover.server.multicast.MulticastTree;
import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.CommandHandler;
import org.ferry.mover.server.pi.FtpException;
import org.ferry.mover.server.popen.DiskStacks;
import org.ferry.mover.server.popen.DriverStack;
import org.ferry.mover.server.popen.PopenCommand;
import org.ferry.mover.server.popen.PopenPolicy;
import org.ferry.mover.server.popen.PopenStage;

/**
 * SITE SETDISKSTACK stack (globus-gridftp-server; globus-url-copy sends it for {@code -fsstack},
 * {@code -src-pipe} and {@code -dst-pipe}: {@code popen:argv=#tar#cf#-#-C#/data#run1}): chooses what
 * the session's following RETR, STOR and APPE read and write. {@code default}, {@code file} and
 * {@code ordering} are the files themselves; {@code popen} runs an allow-listed program ({@link
 * DiskStacks}, {@link PopenStage}); {@code gridftp_multicast} forwards what the session stores to
 * further servers, on a server that allows it ({@link MulticastStage}). {@code 250 OK.}; {@code 500} naming the driver or the program
 * refused, the session's stack then unchanged.
 */
public final class SiteSetDiskStackHandler implements CommandHandler {

    private final PopenPolicy policy;
    private final MulticastPolicy multicast;

    /** @param policy the programs the server allows and the limits of their runs */
    public SiteSetDiskStackHandler(PopenPolicy policy) {
        this(policy, null);
    }

    /**
     * @param policy the programs the server allows and the limits of their runs
     * @param multicast how this server forwards a {@code gridftp_multicast} stack ({@link
     *     MulticastStage}), or null to refuse that driver (the default)
     */
    public SiteSetDiskStackHandler(PopenPolicy policy, MulticastPolicy multicast) {
        this.policy = policy;
        this.multicast = multicast;
    }

    @Override
    public String verb() {
        return "SITE SETDISKSTACK";
    }

    /** @return {@link MulticastTree#FEATURE} on a server that forwards, else none */
    @Override
    public java.util.List<String> features() {
        return multicast == null ? java.util.List.of() : java.util.List.of(MulticastTree.FEATURE);
    }

    @Override
    public void handle(CommandContext ctx, String argument) throws FtpException {
        Optional<MulticastTree> tree = multicastTree(argument);
        if (tree.isPresent()) {
            ctx.session().storageStage(new MulticastStage(tree.get(), multicast));
            ctx.reply(250, "OK.");
            return;
        }
        Optional<PopenCommand> command = DiskStacks.approveDiskStack(argument, policy);
        ctx.session().storageStage(command.map(c -> new PopenStage(c, policy)).orElse(null));
        ctx.reply(250, "OK.");
    }

    /**
     * @return the tree of a {@code file,gridftp_multicast:...} stack ({@code file} and {@code
     *     ordering} may stand beside it), or empty for a stack without that driver
     * @throws FtpException 500 when this server does not forward, or the stack mixes the driver with
     *     others or is malformed
     */
    private Optional<MulticastTree> multicastTree(String argument) throws FtpException {
        DriverStack stack;
        try {
            stack = DriverStack.parse(MulticastTree.decodeWholeOptions(argument));
        } catch (IllegalArgumentException e) {
            return Optional.empty(); // DiskStacks answers for a malformed stack
        }
        DriverStack.Driver found = null;
        for (DriverStack.Driver driver : stack.drivers()) {
            if (driver.name().equals(MulticastTree.DRIVER)) {
                found = driver;
            }
        }
        if (found == null) {
            return Optional.empty();
        }
        if (multicast == null) {
            throw new FtpException(
                    500,
                    "Setting filesystem driver stack failed: driver '" + MulticastTree.DRIVER
                            + "' is not enabled on this server (ferry-gridftp --multicast).");
        }
        for (DriverStack.Driver driver : stack.drivers()) {
            if (driver != found
                    && !driver.name().equals("file")
                    && !driver.name().equals("ordering")) {
                throw new FtpException(
                        500,
                        "Setting filesystem driver stack failed: driver '" + driver.name() + "' cannot stand beside "
                                + MulticastTree.DRIVER + ".");
            }
        }
        return Optional.of(MulticastTree.fromOptions(found.options()));
    }
}
