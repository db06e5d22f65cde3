package org.ferry.mover.app;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.ferry.mover.client.FilePair;
import org.ferry.mover.client.GridFtpClient;
import org.ferry.mover.client.GridFtpSession;
import org.ferry.mover.client.GridFtpUrl;
import org.ferry.mover.client.TransferListener;
import org.ferry.mover.client.TransferOptions;
import org.ferry.mover.server.GridFtpServer;
import org.ferry.mover.server.pi.GridFtpServerConfig;
import org.ferry.mover.server.popen.PopenPolicy;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;

/**
 * The training run behind {@code ferry-gridftp}'s class data sharing archive (JDK 17 AppCDS, JEP
 * 350): the build runs this class with {@code -XX:ArchiveClassesAtExit=target/ferry-gridftp.jsa}
 * on the shaded jar, and {@code bin/ferry-gridftp} starts the server with
 * {@code -XX:SharedArchiveFile} pointing at it, so a fresh server finds the classes its first
 * sessions need already parsed and verified instead of loading them from the jar. The run parses a
 * server command line, starts a server on a temporary root and moves files through it the ways
 * clients do (logins, listings, pipelined MODE E third-party batches with reused connections,
 * stream mode up- and downloads), then stops it; the classes loaded on the way go into the
 * archive. Takes a few seconds; nothing outside the temporary directory is touched.
 */
public final class ArchiveTraining {

    private static final int SMALL_FILES = 200;
    private static final int SMALL_FILE_BYTES = 50 * 1024;
    private static final int PIPELINE_DEPTH = 20;

    private ArchiveTraining() {}

    /**
     * @param args none
     * @throws Exception when the training transfers fail (the build fails with it: an archive from a
     *     broken run would miss what a server needs)
     */
    public static void main(String[] args) throws Exception {
        Path root = Files.createTempDirectory("ferry-cds-training");
        try {
            train(root);
        } finally {
            deleteTree(root);
        }
    }

    private static void train(Path root) throws Exception {
        // what the command line and logging load at start
        new CommandLine(new FerryGridFtpMain()).parseArgs("--port", "0", "--root", root.toString(), "--anonymous");
        LoggerFactory.getLogger(ArchiveTraining.class).debug("training run");
        Path source = Files.createDirectories(root.resolve("src"));
        byte[] content = new byte[SMALL_FILE_BYTES];
        for (int i = 0; i < content.length; i++) {
            content[i] = (byte) (i * 31 + 7);
        }
        List<FilePair> pairs = new ArrayList<>();
        for (int i = 0; i < SMALL_FILES; i++) {
            Files.write(source.resolve("f" + i), content);
            pairs.add(new FilePair("/src/f" + i, "/dst/f" + i, content.length));
        }
        GridFtpServerConfig config = GridFtpServerConfig.loopback(root).withAnonymousAllowed(true);
        try (GridFtpServer server = GridFtpServer.start(config);
                GridFtpClient client = new GridFtpClient()) {
            GridFtpUrl url = GridFtpUrl.parse("ftp://anonymous:training@127.0.0.1:" + server.port());
            try (GridFtpSession from = client.open(url);
                    GridFtpSession to = client.open(url)) {
                from.list("/src");
                to.makeDirectory("/dst");
                // the per-file path of a pipelined third-party batch (globus-url-copy -pp does the same)
                TransferOptions perFile = TransferOptions.extendedBlock(1).withTarStreams(false);
                from.sendAll(pairs, to, perFile, PIPELINE_DEPTH, TransferListener.NONE);
                from.sendAll(pairs, to, TransferOptions.extendedBlock(1), PIPELINE_DEPTH, TransferListener.NONE);
                from.stat("/src/f0");
            }
            try (GridFtpSession session = client.open(url)) {
                Path local = root.resolve("local");
                session.download("/src/f1", local, TransferOptions.STREAM, TransferListener.NONE);
                session.upload(local, "/dst/up", TransferOptions.STREAM, TransferListener.NONE);
                session.download("/src/f2", local, TransferOptions.extendedBlock(2), TransferListener.NONE);
                session.upload(local, "/dst/up-e", TransferOptions.extendedBlock(2), TransferListener.NONE);
                session.checksum("MD5", "/src/f3");
                session.delete("/dst/up");
            }
        }
        trainSshSession(root);
    }

    /**
     * An sshftp session's start, as sshd runs {@code ferry-gridftp --ssh} for each connection: the
     * fast path's command, the control channel on a byte stream read through a FileChannel (here a
     * file of commands instead of a pipe), the in-JVM bridge, and the input's end.
     */
    private static void trainSshSession(Path root) throws Exception {
        FerryGridFtpMain.sshWithDefaults(Map.of());
        Path commands = Files.writeString(
                root.resolve("ssh-commands"),
                "USER anonymous\r\nPASS x\r\nSYST\r\nFEAT\r\nTYPE I\r\nMODE E\r\nPWD\r\nCWD /src\r\n"
                        + "SIZE f0\r\nMDTM f0\r\nCKSM MD5 0 -1 f0\r\nOPTS RETR Parallelism=4,4,4;\r\n"
                        + "PASV\r\nNOOP\r\nQUIT\r\n");
        ByteArrayOutputStream replies = new ByteArrayOutputStream();
        GridFtpServerConfig config = GridFtpServerConfig.loopback(root).withAnonymousAllowed(true);
        try (InputStream in = Channels.newInputStream(FileChannel.open(commands))) {
            GridFtpServer server = GridFtpServer.serveStreams(
                    config, null, PopenPolicy.disabled(), in, replies, new InetSocketAddress("127.0.0.1", 0), null);
            server.awaitClose();
            server.close();
        }
        if (!replies.toString(StandardCharsets.US_ASCII).contains("221")) {
            throw new IllegalStateException("the ssh-mode training session did not end with 221: " + replies);
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
