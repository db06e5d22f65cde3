package org.ferry.it.infra;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A fault-injecting TCP proxy in front of a clear-text FTP/GridFTP server, which also carries the
 * server's passive data connections: it rewrites each {@code 227 Entering Passive Mode} reply
 * (RFC 959 section 4.1.2) to an address of its own that forwards to the server's, so that
 * {@link #cutDataConnections()} breaks every data connection in flight, as a broken network would,
 * while the control connections stay up. Loopback only.
 */
public final class FtpFaultProxy implements AutoCloseable {

    private static final Pattern STORE = Pattern.compile("(STOR|APPE|ESTO) ", Pattern.CASE_INSENSITIVE);
    private static final Pattern PASV =
            Pattern.compile("^227 ([^(]*)\\((\\d+),(\\d+),(\\d+),(\\d+),(\\d+),(\\d+)\\)(.*)$");

    private final InetSocketAddress target;
    private final ServerSocket control;
    private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
        Thread thread = new Thread(r, "ftp-fault-proxy");
        thread.setDaemon(true);
        return thread;
    });
    private final Set<Socket> dataSockets = ConcurrentHashMap.newKeySet();
    private final Set<ServerSocket> dataListeners = ConcurrentHashMap.newKeySet();
    private final Set<Socket> controlSockets = ConcurrentHashMap.newKeySet();
    private final AtomicInteger cuts = new AtomicInteger();
    private final AtomicLong dataBytes = new AtomicLong();
    private final AtomicInteger dataBeforePreliminary = new AtomicInteger();
    private volatile Duration preliminaryHold = Duration.ZERO;
    private final Object gate = new Object();
    private long dataLimit = Long.MAX_VALUE; // guarded by gate
    private volatile boolean open = true;

    /**
     * @param targetPort the FTP server's control port on 127.0.0.1
     */
    public FtpFaultProxy(int targetPort) throws IOException {
        this.target = new InetSocketAddress(InetAddress.getLoopbackAddress(), targetPort);
        this.control = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        threads.submit(this::acceptControl);
    }

    /** @return the proxy's control port */
    public int port() {
        return control.getLocalPort();
    }

    /** @return bytes forwarded over data connections so far */
    public long dataBytes() {
        return dataBytes.get();
    }

    /** @return how many data connections {@link #cutDataConnections} broke */
    public int cuts() {
        return cuts.get();
    }

    /** @return data connections open now (each counted once, though the proxy holds two sockets for it) */
    public int openDataConnections() {
        return (dataSockets.size() + 1) / 2;
    }

    /**
     * From now on holds each 125/150 reply that follows a rewritten 227 until a data connection to
     * that passive address arrives or {@code hold} passes, and counts the data connections that
     * arrived first ({@link #dataBeforePreliminary}): a client that has the sending side start only
     * after the receiving side's 125/150 never makes one arrive first, however long the hold or
     * slow the machine. The hold only gives a client that starts the sender early the time to show
     * it; with a correct client every hold runs out, which costs its length per transfer.
     *
     * @param hold the longest wait per reply; zero forwards at once (the default)
     */
    public void holdPreliminaryReplies(Duration hold) {
        preliminaryHold = hold;
    }

    /** @return data connections that arrived before the 125/150 of their transfer was forwarded */
    public int dataBeforePreliminary() {
        return dataBeforePreliminary.get();
    }

    /**
     * Stops forwarding data once {@link #dataBytes} reaches {@code total}: the data connections
     * stay open and their transfers stall (the sender blocks, as behind a stalled network), until
     * {@link #releaseData}. A connection that its receiving side closes meanwhile is closed as
     * usual, so {@link #openDataConnections} still sees a transfer given up.
     *
     * @param total bytes over all data connections, counted as {@link #dataBytes} counts them
     */
    public void holdDataAt(long total) {
        synchronized (gate) {
            dataLimit = total;
        }
    }

    /** Forwards data again without limit. */
    public void releaseData() {
        synchronized (gate) {
            dataLimit = Long.MAX_VALUE;
            gate.notifyAll();
        }
    }

    /**
     * Takes up to {@code wanted} bytes of the allowance, waiting while the limit is reached.
     *
     * @return the bytes counted and to forward now; -1 if {@code to} was closed while waiting
     */
    private int allowance(int wanted, Socket to) throws InterruptedException {
        synchronized (gate) {
            while (true) {
                long room = dataLimit - dataBytes.get();
                if (room > 0) {
                    int allowed = (int) Math.min(wanted, room);
                    dataBytes.addAndGet(allowed);
                    return allowed;
                }
                if (to.isClosed() || !open) {
                    return -1;
                }
                gate.wait(100);
            }
        }
    }

    /** Breaks every data connection now open (RST-like: both sides see the connection end). */
    public void cutDataConnections() {
        for (Socket socket : Set.copyOf(dataSockets)) {
            cuts.incrementAndGet();
            closeQuietly(socket);
        }
    }

    private void acceptControl() {
        while (open) {
            Socket client = null;
            try {
                client = control.accept();
                Socket server = new Socket();
                try {
                    server.connect(target, 5000);
                } catch (IOException refused) {
                    closeQuietly(client); // the server is down: the client sees its connection end at once
                    continue;
                }
                Socket accepted = client;
                controlSockets.add(accepted);
                controlSockets.add(server);
                ControlSession session = new ControlSession();
                threads.submit(() -> relayLines(accepted, server, session::command));
                threads.submit(() -> relayLines(server, accepted, session::reply));
            } catch (IOException e) {
                if (client != null) {
                    closeQuietly(client);
                }
                if (!open) {
                    return;
                }
            }
        }
    }

    /** What a control relay does with a line before forwarding it. */
    @FunctionalInterface
    private interface LineFilter {
        /** @return the line to forward in its place */
        String apply(String line) throws IOException, InterruptedException;
    }

    /** One direction of a control connection, line by line through {@code filter}. */
    private void relayLines(Socket from, Socket to, LineFilter filter) {
        try (InputStream in = new BufferedInputStream(from.getInputStream());
                OutputStream out = to.getOutputStream()) {
            StringBuilder line = new StringBuilder();
            int b;
            while ((b = in.read()) >= 0) {
                line.append((char) b);
                if (b == '\n') {
                    out.write(filter.apply(line.toString()).getBytes(StandardCharsets.ISO_8859_1));
                    out.flush();
                    line.setLength(0);
                }
            }
        } catch (IOException ignored) {
            // a closed connection ends the relay
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            closeQuietly(from);
            closeQuietly(to);
            controlSockets.remove(from);
            controlSockets.remove(to);
        }
    }

    /**
     * One control connection: its latest command, and the first data connection to the passive
     * address its latest 227 announced.
     */
    private final class ControlSession {
        private volatile String lastCommand = "";
        private CountDownLatch dataArrived; // the reply relay's thread only

        /** Client to server: notes the command. */
        String command(String line) {
            lastCommand = line;
            return line;
        }

        /**
         * Server to client: a 227 pointed at a forwarder of this proxy; a 125/150 to a store command
         * held as {@link #holdPreliminaryReplies} says.
         */
        String reply(String line) throws IOException, InterruptedException {
            if (dataArrived != null
                    && (line.startsWith("125 ") || line.startsWith("150 "))
                    && STORE.matcher(lastCommand).lookingAt()) {
                Duration hold = preliminaryHold;
                if (!hold.isZero() && dataArrived.await(hold.toMillis(), TimeUnit.MILLISECONDS)) {
                    dataBeforePreliminary.incrementAndGet();
                }
                dataArrived = null;
            }
            Matcher pasv = PASV.matcher(line.stripTrailing());
            if (!pasv.matches()) {
                return line;
            }
            dataArrived = new CountDownLatch(1);
            return forwardPassive(pasv, dataArrived);
        }
    }

    /**
     * Listens for the client's data connections to the server's passive address in {@code pasv}
     * and forwards them, counting {@code arrived} down at the first.
     *
     * @return the 227 reply with this proxy's address
     */
    private String forwardPassive(Matcher pasv, CountDownLatch arrived) throws IOException {
        int port = Integer.parseInt(pasv.group(6)) * 256 + Integer.parseInt(pasv.group(7));
        String host = pasv.group(2) + "." + pasv.group(3) + "." + pasv.group(4) + "." + pasv.group(5);
        ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        dataListeners.add(listener);
        InetSocketAddress real = new InetSocketAddress(host, port);
        threads.submit(() -> acceptData(listener, real, arrived));
        int mine = listener.getLocalPort();
        return "227 " + pasv.group(1) + "(127,0,0,1," + (mine / 256) + "," + (mine % 256) + ")" + pasv.group(8)
                + "\r\n";
    }

    private void acceptData(ServerSocket listener, InetSocketAddress real, CountDownLatch arrived) {
        while (open && !listener.isClosed()) {
            try {
                Socket from = listener.accept();
                arrived.countDown();
                Socket to = new Socket();
                to.connect(real, 5000);
                dataSockets.add(from);
                dataSockets.add(to);
                threads.submit(() -> pump(from, to));
                threads.submit(() -> pump(to, from));
            } catch (IOException e) {
                return;
            }
        }
    }

    /** One direction of a data connection, counted into {@link #dataBytes}, held at {@link #holdDataAt}. */
    private void pump(Socket from, Socket to) {
        byte[] buffer = new byte[64 * 1024];
        try (InputStream in = from.getInputStream();
                OutputStream out = to.getOutputStream()) {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                for (int sent = 0; sent < n; ) {
                    int allowed = allowance(n - sent, to);
                    if (allowed < 0) {
                        return;
                    }
                    out.write(buffer, sent, allowed);
                    sent += allowed;
                }
            }
        } catch (IOException ignored) {
            // a cut or a close ends the pump
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            closeQuietly(from);
            closeQuietly(to);
            dataSockets.remove(from);
            dataSockets.remove(to);
        }
    }

    private static void closeQuietly(java.io.Closeable closeable) {
        try {
            closeable.close();
        } catch (IOException ignored) {
            // closing is all we want
        }
    }

    @Override
    public void close() {
        open = false;
        closeQuietly(control);
        dataListeners.forEach(FtpFaultProxy::closeQuietly);
        dataSockets.forEach(FtpFaultProxy::closeQuietly);
        controlSockets.forEach(FtpFaultProxy::closeQuietly);
        threads.shutdownNow();
    }
}
