package org.ferry.bench;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A TCP port on one network namespace's loopback relayed to a port on another's, through a UNIX
 * socket in the file system both see: the processes a benchmark runs in a {@link NamespaceHosts}
 * host reach the containers Docker publishes on this machine's 127.0.0.1 (PostgreSQL, Kafka), and
 * the benchmark reaches their REST API, with no route between the namespaces and no address
 * outside the ones the benchmark made. One half runs in this JVM, the other in a small {@code java}
 * process inside the host's namespace ({@link #main}). Every connection gets two copying threads;
 * TCP_NODELAY on both TCP ends, so that the relay adds a hop, not a delay.
 */
final class LoopbackRelay implements AutoCloseable {

    private final ServerSocketChannel listener;
    private final Path socket;
    private final Process half;
    private final int port;

    private LoopbackRelay(ServerSocketChannel listener, Path socket, Process half, int port) {
        this.listener = listener;
        this.socket = socket;
        this.half = half;
        this.port = port;
    }

    /**
     * Makes {@code 127.0.0.1:port} inside {@code host}'s namespace lead to {@code 127.0.0.1:port}
     * here (the same number on both sides, so that addresses a server advertises, such as Kafka's,
     * hold in both).
     *
     * @param directory where the UNIX socket goes (a short path: the limit is 107 bytes)
     * @param log the namespace half's output
     */
    static LoopbackRelay into(NamespaceHosts.Host host, int port, Path directory, Path log)
            throws IOException, InterruptedException {
        Path socket = directory.resolve("in-" + host.name() + "-" + port + ".sock");
        ServerSocketChannel listener = unixListener(socket);
        serve(listener, () -> tcp(port));
        Process half = startHalf(host, log, List.of("tcp-to-unix", Integer.toString(port), socket.toString()));
        return new LoopbackRelay(listener, socket, half, port);
    }

    /**
     * Makes a free port on this namespace's 127.0.0.1 lead to {@code 127.0.0.1:port} inside {@code
     * host}'s namespace.
     *
     * @return the relay; {@link #port()} is the port here
     */
    static LoopbackRelay outOf(NamespaceHosts.Host host, int port, Path directory, Path log)
            throws IOException, InterruptedException {
        Path socket = directory.resolve("out-" + host.name() + "-" + port + ".sock");
        Files.deleteIfExists(socket);
        Process half = startHalf(host, log, List.of("unix-to-tcp", socket.toString(), Integer.toString(port)));
        ServerSocketChannel listener = ServerSocketChannel.open();
        listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        serve(listener, () -> SocketChannel.open(UnixDomainSocketAddress.of(socket)));
        int local = ((InetSocketAddress) listener.getLocalAddress()).getPort();
        return new LoopbackRelay(listener, socket, half, local);
    }

    /** @return the port this relay listens on here ({@link #outOf}) or the port relayed ({@link #into}) */
    int port() {
        return port;
    }

    @Override
    public void close() throws IOException, InterruptedException {
        listener.close();
        half.destroy();
        if (!half.waitFor(10, TimeUnit.SECONDS)) {
            half.destroyForcibly();
        }
        Files.deleteIfExists(socket);
    }

    private interface Connector {
        SocketChannel connect() throws IOException;
    }

    private static Process startHalf(NamespaceHosts.Host host, Path log, List<String> arguments)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx64m",
                "-XX:+UseSerialGC",
                "-cp",
                System.getProperty("java.class.path"),
                LoopbackRelay.class.getName()));
        command.addAll(arguments);
        Files.createDirectories(log.getParent());
        Process process = new ProcessBuilder(host.exec(command))
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        for (int i = 0; i < 300; i++) {
            if (Files.exists(log)
                    && Files.readString(log, StandardCharsets.UTF_8).contains("relaying")) {
                return process;
            }
            if (!process.isAlive()) {
                throw new IllegalStateException("relay exited:\n" + Files.readString(log));
            }
            Thread.sleep(50);
        }
        process.destroyForcibly();
        throw new IllegalStateException("relay did not start:\n" + Files.readString(log));
    }

    private static ServerSocketChannel unixListener(Path socket) throws IOException {
        Files.deleteIfExists(socket);
        ServerSocketChannel listener = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        listener.bind(UnixDomainSocketAddress.of(socket));
        return listener;
    }

    private static SocketChannel tcp(int port) throws IOException {
        SocketChannel channel = SocketChannel.open(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
        return channel;
    }

    /** Accepts on a daemon thread until the listener closes; each connection relayed to a new one. */
    private static void serve(ServerSocketChannel listener, Connector connector) {
        Thread acceptor = new Thread(
                () -> {
                    while (listener.isOpen()) {
                        SocketChannel accepted;
                        try {
                            accepted = listener.accept();
                        } catch (IOException closed) {
                            return;
                        }
                        try {
                            if (accepted.getLocalAddress() instanceof InetSocketAddress) {
                                accepted.setOption(StandardSocketOptions.TCP_NODELAY, true);
                            }
                            SocketChannel other = connector.connect();
                            pump(accepted, other);
                            pump(other, accepted);
                        } catch (IOException e) {
                            closeQuietly(accepted);
                        }
                    }
                },
                "relay-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** Copies {@code from} to {@code to} on a daemon thread; at the end of {@code from}, ends {@code to}'s output. */
    private static void pump(SocketChannel from, SocketChannel to) {
        Thread copier = new Thread(
                () -> {
                    ByteBuffer buffer = ByteBuffer.allocateDirect(64 * 1024);
                    try {
                        while (from.read(buffer) >= 0) {
                            buffer.flip();
                            while (buffer.hasRemaining()) {
                                to.write(buffer);
                            }
                            buffer.clear();
                        }
                        to.shutdownOutput();
                    } catch (IOException e) {
                        closeQuietly(from);
                        closeQuietly(to);
                    }
                },
                "relay-copy");
        copier.setDaemon(true);
        copier.start();
    }

    private static void closeQuietly(SocketChannel channel) {
        try {
            channel.close();
        } catch (IOException ignored) {
            // already gone
        }
    }

    /**
     * The namespace half, run by {@code ip netns exec}: {@code tcp-to-unix PORT SOCKET} listens on
     * 127.0.0.1:PORT and connects each connection to the UNIX socket; {@code unix-to-tcp SOCKET PORT}
     * listens on the UNIX socket and connects to 127.0.0.1:PORT. Prints {@code relaying} when it
     * listens; runs until killed.
     */
    public static void main(String[] args) throws Exception {
        ServerSocketChannel listener;
        if (args.length == 3 && args[0].equals("tcp-to-unix")) {
            Path socket = Path.of(args[2]);
            listener = ServerSocketChannel.open();
            listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), Integer.parseInt(args[1])));
            serve(listener, () -> SocketChannel.open(UnixDomainSocketAddress.of(socket)));
        } else if (args.length == 3 && args[0].equals("unix-to-tcp")) {
            int port = Integer.parseInt(args[2]);
            listener = unixListener(Path.of(args[1]));
            serve(listener, () -> tcp(port));
        } else {
            throw new IllegalArgumentException("usage: tcp-to-unix PORT SOCKET | unix-to-tcp SOCKET PORT");
        }
        System.out.println("relaying " + String.join(" ", args));
        System.out.flush();
        Thread.currentThread().join(); // until killed
    }
}
