package org.ferry.mover.app;

import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.Channels;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import org.ferry.gsi.PasswordFile;
import org.ferry.gsi.context.GsiEngines;
import org.ferry.gsi.credential.CredentialLoader;
import org.ferry.mover.client.GridFtpClient;
import org.ferry.mover.client.GsiClientSecurity;
import org.ferry.mover.protocol.ChecksumAlgorithm;
import org.ferry.mover.server.GridFtpServer;
import org.ferry.mover.server.command.SiteSetDiskStackHandler;
import org.ferry.mover.server.dtp.DtpFactory;
import org.ferry.mover.server.multicast.MulticastPolicy;
import org.ferry.mover.server.pi.Authenticator;
import org.ferry.mover.server.pi.GridFtpServerConfig;
import org.ferry.mover.server.pi.GsiServerSecurity;
import org.ferry.mover.server.popen.PopenAllowList;
import org.ferry.mover.server.popen.PopenPolicy;
import org.ferry.mover.stripe.LinkAuth;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code ferry-gridftp}: runs Ferry's GridFTP server over one root directory (like
 * globus-gridftp-server with {@code -aa} / {@code -password-file}), or hashes a password for the
 * password file ({@code ferry-gridftp passwd USER}, password read from the first line of stdin).
 * With {@code --data-node host:port} (repeated) and {@code --data-node-secret FILE} it is the head
 * node of a striped server: SPAS/SPOR transfers run on those data nodes ({@code ferry-gridftp
 * data-node}, the SC'05 striped server's decomposition). With {@code --gsi}, or any of
 * {@code --host-cert}, {@code --host-key}, {@code --ca-dir}, {@code --gridmap} (each overriding the
 * environment variable globus-gridftp-server reads; see {@link GsiMaterial}), it also offers GSI
 * logins (RFC 2228 AUTH GSSAPI, RFC 2228 with the GSI GSS-API mechanism).
 * Prints {@code Server listening at host:port} on stdout once bound, as globus-gridftp-server
 * does, so scripts and tests can scrape the port. Exit codes: 0 normal, 1 start failure
 * (including a missing, unreadable or malformed GSI file), 2 usage.
 */
@Command(
        name = "ferry-gridftp",
        mixinStandardHelpOptions = true,
        version = "ferry-gridftp 0.1",
        description = "Ferry GridFTP server: serves one directory over GridFTP (clear-text and/or GSI logins).",
        subcommands = {
            FerryGridFtpMain.Passwd.class,
            DataNodeCommand.class,
            EnableSshftpCommand.class,
            OnlineCaCommand.class
        })
public final class FerryGridFtpMain implements Callable<Integer> {

    @Spec
    private CommandLine.Model.CommandSpec spec;

    @Option(
            names = {"-p", "--port"},
            defaultValue = "2811",
            description = "Control channel port; 0 = ephemeral (default: ${DEFAULT-VALUE}).")
    private int port = 2811;

    @Option(
            names = {"-r", "--root"},
            description = "Directory to serve as /; nothing outside it is reachable.")
    private Path root;

    @Option(
            names = "--bind",
            description = "Address to listen on and to announce in PASV (default: 127.0.0.1; with --ssh the address"
                    + " the SSH client reached this host on, from SSH_CONNECTION).")
    private String bind;

    @Option(
            names = "--ssh",
            description = "Serve one control connection on standard input and output, its user already"
                    + " authenticated by sshd (the remote side of sshftp://, as globus-gridftp-server -ssh): any"
                    + " USER/PASS logs in as the account running this process; --root defaults to /; only"
                    + " warnings go to standard error.")
    private boolean ssh;

    @Option(
            names = {"--inetd", "-i"},
            description = "Serve one control connection on standard input and output (inetd or xinetd connected"
                    + " it), with the usual logins.")
    private boolean inetd;

    @Option(
            names = "--multicast",
            description = "Accept SITE SETDISKSTACK file,gridftp_multicast:urls=...: a received file is written here"
                    + " and forwarded, while it arrives, to the next servers of the tree the client names (one source"
                    + " to many destinations; docs/files-api.md). Off by default: the server then connects wherever"
                    + " a logged-in client asks.")
    private boolean multicast;

    @Option(
            names = "--multicast-retry",
            defaultValue = "120",
            description = "Seconds a failed multicast branch is retried from this server's copy before the transfer"
                    + " fails naming it (default: ${DEFAULT-VALUE}).")
    private long multicastRetrySeconds = 120;

    @Option(
            names = "--popen-allow",
            paramLabel = "[ALIAS:]PROGRAM,...",
            description = "Programs clients may run on the data path with SITE SETDISKSTACK popen:argv=...,"
                    + " e.g. tar:/bin/tar,md5dir:/usr/local/bin/md5dir (globus-url-copy -src-pipe/-dst-pipe);"
                    + " absolute paths; none by default.")
    private String popenAllow;

    @Option(
            names = "--popen-timeout",
            paramLabel = "SECONDS",
            defaultValue = "3600",
            description = "Longest a popen program may run before it is stopped (default: ${DEFAULT-VALUE}).")
    private long popenTimeoutSeconds = 3600;

    @Option(
            names = "--popen-spool",
            paramLabel = "DIR",
            description = "Where popen programs' output and input wait on disk (default: the JVM's temporary"
                    + " directory).")
    private Path popenSpool;

    @Option(
            names = "--popen-spool-limit",
            paramLabel = "BYTES",
            defaultValue = "64G",
            converter = ByteSizeConverter.class,
            description = "Most bytes a popen program may write, or a client may send to one; suffixes K, M, G"
                    + " (default: ${DEFAULT-VALUE}).")
    private long popenSpoolLimitBytes = 64L << 30;

    @Option(
            names = {"--anonymous", "-aa"},
            description = "Allow anonymous logins (users anonymous and ftp).")
    private boolean anonymous;

    @Option(names = "--password-file", description = "File of user:bcrypt-hash lines (see the passwd subcommand).")
    private Path passwordFile;

    @Option(
            names = "--marker-interval",
            defaultValue = "5",
            description = "Seconds between 112/111 markers while receiving in MODE E, 0.1 or more, fractions "
                    + "allowed (default: ${DEFAULT-VALUE}).")
    private double markerIntervalSeconds = 5;

    @Option(
            names = "--idle-timeout",
            defaultValue = "600",
            description = "Seconds before an idle control connection is closed (default: ${DEFAULT-VALUE}).")
    private int idleTimeoutSeconds = 600;

    @Option(
            names = "--data-rate-limit",
            paramLabel = "BYTES",
            defaultValue = "0",
            converter = ByteSizeConverter.class,
            description = "Cap on the bytes per second the server sends, and separately receives, over all its "
                    + "data connections; suffixes K, M, G (powers of 1024); 0 for none (default: ${DEFAULT-VALUE}).")
    private long dataRateLimitBytesPerSecond = 0;

    @Option(
            names = "--max-sessions",
            paramLabel = "N",
            defaultValue = "0",
            description = "Most control connections open at once (globus-gridftp-server's -connections-max): one more"
                    + " is answered \"421 Service busy\" and closed, the others go on; 0 for no limit"
                    + " (default: ${DEFAULT-VALUE}).")
    private int maxSessions = 0;

    @Option(
            names = "--busy-poll",
            paramLabel = "MICROSECONDS",
            defaultValue = "400",
            description = "Microseconds an event loop keeps polling after it answered a command before it sleeps,"
                    + " while the server has fewer sessions than cores: a client's next command then finds it"
                    + " awake; 0 = never (default: ${DEFAULT-VALUE}).")
    private int busyPollMicros = 400;

    @Option(
            names = "--inflight-checksums",
            paramLabel = "ALGORITHMS",
            defaultValue = "none",
            description = "Checksums computed of a received file while it arrives in order (stream mode, MODE E over"
                    + " one connection) and kept with the file's identity, so that CKSM answers without reading it"
                    + " again: a comma-separated list of MD5, ADLER32, SHA1, SHA256, SHA512, CRC32C, or none"
                    + " (default: ${DEFAULT-VALUE}; MD5 is what globus-url-copy -verify-checksum asks for).")
    private String inflightChecksums = "none";

    @Option(
            names = "--data-node",
            paramLabel = "HOST:PORT",
            description = "Run as a striped head node driving this data node (repeat, in stripe order).")
    private List<String> dataNodes = new ArrayList<>();

    @Option(
            names = "--data-node-secret",
            paramLabel = "FILE",
            description = "File whose first line is the secret shared with the data nodes.")
    private Path dataNodeSecret;

    @Option(
            names = "--gsi",
            description = "Offer AUTH GSSAPI (GSI) logins, mapped to accounts by the grid-mapfile;"
                    + " the host credential, trusted CAs and grid-mapfile come from the options below, else from the"
                    + " environment and /etc/grid-security as for globus-gridftp-server.")
    private boolean gsi;

    @Option(
            names = "--host-cert",
            paramLabel = "FILE",
            description = "Host certificate, PEM (default: X509_USER_CERT,"
                    + " else /etc/grid-security/hostcert.pem). Implies --gsi.")
    private Path hostCertificate;

    @Option(
            names = "--host-key",
            paramLabel = "FILE",
            description = "Unencrypted host key, PEM (default: X509_USER_KEY,"
                    + " else /etc/grid-security/hostkey.pem). Implies --gsi.")
    private Path hostKey;

    @Option(
            names = "--ca-dir",
            paramLabel = "DIR",
            description =
                    "Trusted CAs, OpenSSL hashed directory with signing"
                            + " policies and CRLs (default: X509_CERT_DIR, else /etc/grid-security/certificates). Implies --gsi.")
    private Path caDirectory;

    @Option(
            names = "--gridmap",
            paramLabel = "FILE",
            description = "Grid-mapfile, \"DN\" account lines (default: GRIDMAP,"
                    + " else /etc/grid-security/grid-mapfile). Implies --gsi.")
    private Path gridMap;

    private final Map<String, String> environment;

    /** A command that reads the GSI variables from this process's environment. */
    public FerryGridFtpMain() {
        this(System.getenv());
    }

    /**
     * @param environment the variables the GSI defaults come from ({@code X509_USER_CERT},
     *     {@code X509_USER_KEY}, {@code X509_CERT_DIR}, {@code GRIDMAP})
     */
    public FerryGridFtpMain(Map<String, String> environment) {
        this.environment = Map.copyOf(environment);
    }

    /**
     * @param args command line
     * @throws Exception when the --ssh fast path fails in a way picocli would have reported
     */
    public static void main(String[] args) throws Exception {
        // Standard output is the control channel in these modes: logs (standard error, logback.xml)
        // go to the client's terminal through ssh, so only warnings. Set before any logger exists.
        if (Arrays.asList(args).contains("--ssh") && System.getProperty("ferry.log.level") == null) {
            System.setProperty("ferry.log.level", "WARN");
        }
        // Netty's buffer events set up JFR at the first buffer (about 0.09 s of every sshd-started
        // server, before its banner); a recording of such a short process is rare, and the option
        // brings the events back.
        if (Arrays.asList(args).contains("--ssh") && System.getProperty("io.netty.jfr.enabled") == null) {
            System.setProperty("io.netty.jfr.enabled", "false");
        }
        // Before any TLS: globus peers send a DN as SNI on DCAU data connections (GsiEngines).
        GsiEngines.ignoreServerNameIndication();
        if (args.length == 1 && args[0].equals("--ssh")) {
            // What sshd runs for every sshftp connection (enable-sshftp's script without options): no
            // picocli, whose parse took a quarter of a second of each start (its class files are too
            // old for the class data sharing archive, so they are read and verified every time).
            System.exit(sshWithDefaults(System.getenv()).serve(errWriter(), outWriter()));
        }
        System.exit(new CommandLine(new FerryGridFtpMain()).execute(args));
    }

    /**
     * The command as picocli makes it of the one argument {@code --ssh}: every other option at its
     * default (the fields' initial values, which equal the annotations' defaults; a test compares
     * them).
     *
     * @param environment the process's variables ({@code SSH_CONNECTION}, the GSI ones)
     * @return the command, ready for {@link #serve}
     */
    static FerryGridFtpMain sshWithDefaults(Map<String, String> environment) {
        FerryGridFtpMain command = new FerryGridFtpMain(environment);
        command.ssh = true;
        return command;
    }

    private static PrintWriter errWriter() {
        return new PrintWriter(new OutputStreamWriter(System.err, Charset.defaultCharset()), true);
    }

    private static PrintWriter outWriter() {
        return new PrintWriter(new OutputStreamWriter(System.out, Charset.defaultCharset()), true);
    }

    @Override
    public Integer call() throws Exception {
        return serve(spec.commandLine().getErr(), spec.commandLine().getOut());
    }

    /**
     * Checks the options and serves until the server is closed (or the one session of --ssh / --inetd ends).
     *
     * @param err where usage errors go
     * @param out where the listening address goes
     * @return the exit status: 0 served, 1 the server could not start, 2 bad options
     * @throws Exception as {@link #call}
     */
    int serve(PrintWriter err, PrintWriter out) throws Exception {
        if (ssh && inetd) {
            err.println("ferry-gridftp: --ssh and --inetd exclude each other");
            return 2;
        }
        if (root == null && ssh) {
            root = Path.of("/"); // as globus-gridftp-server -ssh: the account's own view of the file system
        }
        if (root == null) {
            err.println("ferry-gridftp: --root is required");
            return 2;
        }
        if (!Files.isDirectory(root)) {
            err.println("ferry-gridftp: not a directory: " + root);
            return 2;
        }
        // Naming any GSI file means the admin wants GSI (globus-gridftp-server has no switch for it at all).
        boolean withGsi = gsi || hostCertificate != null || hostKey != null || caDirectory != null || gridMap != null;
        if (!ssh && !anonymous && passwordFile == null && !withGsi) {
            err.println("ferry-gridftp: give --gsi, --anonymous and/or --password-file, otherwise nobody can log in");
            return 2;
        }
        // frequent markers bound what a killed transfer resends (tests use 0.2 s)
        if (!(markerIntervalSeconds >= 0.1) || markerIntervalSeconds > 86_400 || idleTimeoutSeconds < 1) {
            err.println("ferry-gridftp: --marker-interval must be 0.1 to 86400 seconds, --idle-timeout at least 1");
            return 2;
        }
        if (maxSessions < 0) {
            err.println("ferry-gridftp: --max-sessions must be 0 (no limit) or more");
            return 2;
        }
        Set<ChecksumAlgorithm> inflight = EnumSet.noneOf(ChecksumAlgorithm.class);
        if (!inflightChecksums.strip().equalsIgnoreCase("none")) {
            for (String name : inflightChecksums.split(",")) {
                ChecksumAlgorithm algorithm = ChecksumAlgorithm.parse(name);
                if (algorithm == null) {
                    err.println("ferry-gridftp: --inflight-checksums: unknown algorithm \"" + name.strip()
                            + "\" (known: MD5, ADLER32, SHA1, SHA256, SHA512, CRC32C, or none)");
                    return 2;
                }
                inflight.add(algorithm);
            }
        }
        if (busyPollMicros < 0 || busyPollMicros > 1_000_000) {
            err.println("ferry-gridftp: --busy-poll must be 0 to 1000000 microseconds");
            return 2;
        }
        PopenPolicy popen;
        try {
            popen = popenPolicy();
        } catch (IllegalArgumentException e) {
            err.println("ferry-gridftp: " + e.getMessage());
            return 2;
        }
        Authenticator authenticator = Authenticator.denyAll();
        if (passwordFile != null) {
            PasswordFile file;
            try {
                file = PasswordFile.load(passwordFile);
            } catch (IOException | IllegalArgumentException e) {
                // a missing file surfaces as NoSuchFileException whose message is just the path
                err.println("ferry-gridftp: --password-file " + passwordFile + ": "
                        + (e instanceof NoSuchFileException ? "no such file" : e.getMessage()));
                return 2;
            }
            authenticator = file::verify;
        }
        if (ssh) {
            // sshd authenticated the user: the session is this process's account, whatever USER says
            authenticator = (user, password) -> true;
        }
        Optional<SshConnection> connection = SshConnection.parse(environment.get("SSH_CONNECTION"));
        InetAddress bindAddress;
        if (bind != null) {
            bindAddress = InetAddress.getByName(bind);
        } else if (ssh && connection.isPresent()) {
            bindAddress = connection.get().server().getAddress();
        } else {
            bindAddress = InetAddress.getLoopbackAddress();
        }
        GridFtpServerConfig config = new GridFtpServerConfig(
                bindAddress,
                port,
                root,
                anonymous || ssh,
                authenticator,
                Duration.ofMillis(Math.round(markerIntervalSeconds * 1000)),
                Duration.ofSeconds(idleTimeoutSeconds),
                dataRateLimitBytesPerSecond,
                Duration.of(busyPollMicros, ChronoUnit.MICROS),
                inflight,
                maxSessions);
        DtpFactory dtps = DtpFactory.local();
        if (!dataNodes.isEmpty()) {
            if (dataNodeSecret == null) {
                err.println("ferry-gridftp: --data-node needs --data-node-secret");
                return 2;
            }
            List<InetSocketAddress> nodes = new ArrayList<>();
            for (String node : dataNodes) {
                int colon = node.lastIndexOf(':');
                try {
                    nodes.add(new InetSocketAddress(
                            InetAddress.getByName(node.substring(0, colon)),
                            Integer.parseInt(node.substring(colon + 1))));
                } catch (RuntimeException | IOException e) {
                    err.println("ferry-gridftp: bad --data-node " + node + " (want host:port)");
                    return 2;
                }
            }
            try {
                dtps = DtpFactory.dataNodes(nodes, LinkAuth.fromFile(dataNodeSecret));
            } catch (IOException | IllegalArgumentException e) {
                err.println("ferry-gridftp: secret file " + dataNodeSecret + ": " + e.getMessage());
                return 2;
            }
        }
        GsiServerSecurity security = null;
        if (withGsi) {
            try {
                // the uid only names a user's proxy file, which a server does not read
                security = GsiMaterial.locate(
                                new CredentialLoader(environment, 0), hostCertificate, hostKey, caDirectory, gridMap)
                        .load();
            } catch (IOException e) {
                err.println("ferry-gridftp: cannot set up GSI: " + e.getMessage());
                return 1;
            }
        }
        if (ssh || inetd) {
            return serveStandardStreams(config, security, popen, connection, err);
        }
        GridFtpServer server;
        try {
            if (multicast) {
                MulticastPolicy policy = multicastPolicy(security);
                server = GridFtpServer.start(
                        config,
                        security,
                        dtps,
                        popen,
                        commands -> commands.with(List.of(new SiteSetDiskStackHandler(popen, policy))));
            } else {
                server = GridFtpServer.start(config, security, dtps, popen);
            }
        } catch (IOException e) {
            err.println("ferry-gridftp: " + e.getMessage());
            return 1;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(server::close, "ferry-gridftp-shutdown"));
        // the configured address, not the socket's: a wildcard bind may show as the IPv6 "::"
        String host = config.bindAddress().getHostAddress();
        out.println("Server listening at " + (host.contains(":") ? "[" + host + "]" : host) + ":" + server.port());
        out.flush();
        server.awaitClose();
        return 0;
    }

    /**
     * The client a multicast server forwards with: logins from the URLs for ftp://, this server's
     * host credential for gsiftp:// (the Globus driver uses the session's delegated credential; a
     * Ferry server forwards as itself, so the next servers must map the host's subject).
     */
    private MulticastPolicy multicastPolicy(GsiServerSecurity security) {
        GridFtpClient client = security == null
                ? new GridFtpClient(Duration.ofMinutes(10))
                : new GridFtpClient(
                        Duration.ofMinutes(10),
                        GsiClientSecurity.of(security.hostCredential(), security.validator(), security.trustStore()));
        return new MulticastPolicy(
                client::open,
                MulticastPolicy.DEFAULT_WINDOW_BYTES,
                Duration.ofSeconds(Math.max(0, multicastRetrySeconds)),
                Duration.ofSeconds(1));
    }

    /**
     * --ssh / --inetd: one session on this process's standard input and output, over when the client
     * quits or the input ends.
     */
    private int serveStandardStreams(
            GridFtpServerConfig config,
            GsiServerSecurity security,
            PopenPolicy popen,
            Optional<SshConnection> connection,
            PrintWriter err) {
        InetSocketAddress local =
                connection.map(SshConnection::server).orElse(new InetSocketAddress(config.bindAddress(), 0));
        InetSocketAddress peer = connection.map(SshConnection::client).orElse(null);
        // Standard input through a FileChannel, not a FileInputStream: closing the channel wakes the
        // thread blocked reading it (a signal ends its read(2)). A thread left in native code holds
        // the JVM's exit for 0.3 s (HotSpot waits for such threads to block), and the client need
        // not close its side before it has seen this process end.
        InputStream in = Channels.newInputStream(new FileInputStream(FileDescriptor.in).getChannel());
        GridFtpServer server;
        try {
            server = GridFtpServer.serveStreams(config, security, popen, in, System.out, local, peer);
        } catch (IOException e) {
            err.println("ferry-gridftp: " + e.getMessage());
            return 1;
        }
        server.awaitClose();
        try {
            in.close();
        } catch (IOException e) {
            // the session is over; nothing more is read
        }
        server.close();
        return 0;
    }

    /** @return the popen settings of the options; disabled without --popen-allow */
    private PopenPolicy popenPolicy() {
        if (popenTimeoutSeconds < 1 || popenSpoolLimitBytes < 1) {
            throw new IllegalArgumentException("--popen-timeout and --popen-spool-limit must be positive");
        }
        PopenAllowList allowList = popenAllow == null ? PopenAllowList.none() : PopenAllowList.parse(popenAllow);
        for (Path program : allowList.programs()) {
            if (!Files.isRegularFile(program) || !Files.isExecutable(program)) {
                throw new IllegalArgumentException("--popen-allow: " + program + " is not an executable file");
            }
        }
        Path spool = popenSpool != null ? popenSpool : Path.of(System.getProperty("java.io.tmpdir"));
        if (!Files.isDirectory(spool)) {
            throw new IllegalArgumentException("--popen-spool: not a directory: " + spool);
        }
        return new PopenPolicy(allowList, Duration.ofSeconds(popenTimeoutSeconds), spool, popenSpoolLimitBytes);
    }

    /** {@code ferry-gridftp passwd USER}: prints a password file line for USER. */
    @Command(
            name = "passwd",
            mixinStandardHelpOptions = true,
            description = "Read a password from the first line of stdin and print USER:bcrypt-hash.")
    static final class Passwd implements Callable<Integer> {

        @Spec
        private CommandLine.Model.CommandSpec spec;

        @Parameters(index = "0", paramLabel = "USER", description = "Login name.")
        private String user;

        @Override
        public Integer call() throws IOException {
            String password;
            if (System.console() != null) {
                char[] typed = System.console().readPassword("Password for %s: ", user);
                password = typed == null ? null : new String(typed);
            } else {
                password = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
            }
            if (password == null || password.isEmpty()) {
                spec.commandLine().getErr().println("ferry-gridftp passwd: empty password");
                return 2;
            }
            try {
                spec.commandLine().getOut().println(PasswordFile.line(user, password.toCharArray()));
            } catch (IllegalArgumentException e) {
                spec.commandLine().getErr().println("ferry-gridftp passwd: " + e.getMessage());
                return 2;
            }
            spec.commandLine().getOut().flush();
            return 0;
        }
    }
}
