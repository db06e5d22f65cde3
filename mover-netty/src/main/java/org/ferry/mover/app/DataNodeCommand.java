package org.ferry.mover.app;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.ferry.mover.server.dtp.DataNode;
import org.ferry.mover.stripe.LinkAuth;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code ferry-gridftp data-node --port N --root DIR --secret-file FILE}: runs a data node, the
 * DTP process of a striped server (SC'05 paper, section 5), driven by a head node started with
 * {@code --data-node host:N --data-node-secret FILE}. Prints {@code Data node listening at host:port}
 * once bound. Exit codes: 0 normal, 1 start failure, 2 usage.
 */
@Command(
        name = "data-node",
        mixinStandardHelpOptions = true,
        description = "Run a data node (striped DTP) that a head node drives over an authenticated internal link.")
final class DataNodeCommand implements Callable<Integer> {

    @Spec
    private CommandLine.Model.CommandSpec spec;

    @Option(
            names = {"-p", "--port"},
            defaultValue = "0",
            description = "Internal link port; 0 = ephemeral (default: ${DEFAULT-VALUE}).")
    private int port;

    @Option(
            names = {"-r", "--root"},
            required = true,
            description = "The directory the head node serves as / (a shared file system).")
    private Path root;

    @Option(
            names = "--bind",
            defaultValue = "127.0.0.1",
            description = "Address for the link and for data listeners (default: ${DEFAULT-VALUE}).")
    private String bind;

    @Option(
            names = "--secret-file",
            required = true,
            description = "File whose first line is the secret shared with the head node (at least 16 bytes).")
    private Path secretFile;

    @Override
    public Integer call() throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        if (!Files.isDirectory(root)) {
            err.println("ferry-gridftp data-node: not a directory: " + root);
            return 2;
        }
        LinkAuth auth;
        try {
            auth = LinkAuth.fromFile(secretFile);
        } catch (IOException | IllegalArgumentException e) {
            err.println("ferry-gridftp data-node: secret file " + secretFile + ": " + e.getMessage());
            return 2;
        }
        DataNode node;
        try {
            node = DataNode.start(InetAddress.getByName(bind), port, root, auth);
        } catch (IOException e) {
            err.println("ferry-gridftp data-node: " + e.getMessage());
            return 1;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(node::close, "ferry-data-node-shutdown"));
        PrintWriter out = spec.commandLine().getOut();
        out.println("Data node listening at " + bind + ":" + node.port());
        out.flush();
        node.awaitClose();
        return 0;
    }
}
