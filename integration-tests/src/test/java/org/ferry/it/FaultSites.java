package org.ferry.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Random;
import org.ferry.mover.server.GridFtpServer;
import org.ferry.mover.server.pi.GridFtpServerConfig;

/**
 * The two GridFTP servers every fault test transfers between, anonymous, on loopback, with
 * restart markers every 0.2 s: a source capped at a rate, so that a transfer is still running
 * when the test strikes, and a destination that can go down and come back on its port (the
 * endpoint names it). Also the test trees: a few big files of random bytes and many small ones.
 */
final class FaultSites implements AutoCloseable {

    private final Path sourceRoot;
    private final Path destinationRoot;
    private final GridFtpServer source;
    private GridFtpServerConfig destinationConfig;
    private GridFtpServer destination;

    private FaultSites(Path work, long sourceBytesPerSecond) throws IOException {
        sourceRoot = Files.createDirectories(work.resolve("source"));
        destinationRoot = Files.createDirectories(work.resolve("destination"));
        source = GridFtpServer.start(GridFtpServerConfig.loopback(sourceRoot)
                .withAnonymousAllowed(true)
                .withMarkerInterval(Duration.ofMillis(200))
                .withDataRateLimit(sourceBytesPerSecond));
        destinationConfig = GridFtpServerConfig.loopback(destinationRoot)
                .withAnonymousAllowed(true)
                .withMarkerInterval(Duration.ofMillis(200));
        destination = GridFtpServer.start(destinationConfig);
        destinationConfig = destinationConfig.withPort(destination.port());
    }

    /**
     * @param work the test class's directory ({@code source/} and {@code destination/} go inside)
     * @param sourceBytesPerSecond the source's cap over all its data connections
     */
    static FaultSites start(Path work, long sourceBytesPerSecond) throws IOException {
        return new FaultSites(work, sourceBytesPerSecond);
    }

    Path sourceRoot() {
        return sourceRoot;
    }

    Path destinationRoot() {
        return destinationRoot;
    }

    int sourcePort() {
        return source.port();
    }

    int destinationPort() {
        return destinationConfig.port();
    }

    /** Stops the destination server: its port refuses connections, open sessions break. */
    void stopDestination() {
        destination.close();
    }

    /** Starts the destination again on its port. */
    void startDestination() throws IOException {
        destination = GridFtpServer.start(destinationConfig);
    }

    /**
     * Writes {@code source/NAME}: {@code big-0.bin} ... of {@code bigMebibytes} each and
     * {@code small/s0.dat} ... of 1 to 21 kB, random bytes from {@code seed}.
     *
     * @return the tree's root
     */
    Path tree(String name, long seed, int bigFiles, int bigMebibytes, int smallFiles) throws IOException {
        Path root = Files.createDirectories(sourceRoot.resolve(name));
        Random random = new Random(seed);
        for (int i = 0; i < bigFiles; i++) {
            byte[] big = new byte[bigMebibytes << 20];
            random.nextBytes(big);
            Files.write(root.resolve("big-" + i + ".bin"), big);
        }
        Files.createDirectories(root.resolve("small"));
        for (int i = 0; i < smallFiles; i++) {
            byte[] small = new byte[1000 + random.nextInt(20_000)];
            random.nextBytes(small);
            Files.write(root.resolve("small/s" + i + ".dat"), small);
        }
        return root;
    }

    /**
     * @return true once some big file of the copy of {@code tree} is there, under its temporary
     *     name, but shorter than its source: a transfer in flight
     */
    boolean partialFileAt(String tree) {
        Path original = sourceRoot.resolve(tree);
        Path copy = destinationRoot.resolve(tree);
        for (int i = 0; Files.exists(original.resolve("big-" + i + ".bin")); i++) {
            // a file moved alone is written under its temporary name; one of a pipelined batch
            // under its own name: either, part-written, is a partial file
            long whole = FaultHarness.size(original.resolve("big-" + i + ".bin"));
            Path file = copy.resolve("big-" + i + ".bin");
            for (long there : new long[] {FaultHarness.size(FaultHarness.partial(file)), FaultHarness.size(file)}) {
                if (there > 0 && there < whole) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Asserts that the copy of {@code tree} has every file of its source with the same bytes, and nothing more. */
    void assertCopied(String tree) throws IOException {
        FaultHarness.assertIdentical(sourceRoot.resolve(tree), destinationRoot.resolve(tree));
    }

    @Override
    public void close() {
        source.close();
        destination.close();
    }
}
