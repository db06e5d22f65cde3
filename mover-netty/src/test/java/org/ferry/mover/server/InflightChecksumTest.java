package org.ferry.mover.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import org.apache.commons.net.ftp.FTP;
import org.apache.commons.net.ftp.FTPClient;
import org.ferry.mover.client.GridFtpClient;
import org.ferry.mover.client.GridFtpSession;
import org.ferry.mover.client.GridFtpUrl;
import org.ferry.mover.client.TransferListener;
import org.ferry.mover.client.TransferOptions;
import org.ferry.mover.protocol.ChecksumAlgorithm;
import org.ferry.mover.server.dtp.DtpFactory;
import org.ferry.mover.server.pi.GridFtpServerConfig;
import org.ferry.mover.storage.FileIdentity;
import org.ferry.mover.storage.FileStat;
import org.ferry.mover.storage.PosixStorage;
import org.ferry.mover.storage.StorageException;
import org.ferry.mover.storage.StorageInterface;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Checksums computed while a STOR receives the file: CKSM answers from them without opening the
 * file for reading (the storage counts every open for reading), reads again once the file changed,
 * and reads as before for uploads that do not come in order from byte 0 or when the server computes
 * none.
 */
class InflightChecksumTest {

    @TempDir
    Path tmp;

    private Path root;
    private GridFtpServer server;
    private FTPClient ftp;
    private final AtomicInteger reads = new AtomicInteger();

    private void start(Set<ChecksumAlgorithm> inflight) throws IOException {
        reads.set(0);
        root = Files.createDirectory(tmp.resolve("root"));
        GridFtpServerConfig config = GridFtpServerConfig.loopback(root)
                .withAuthenticator((u, p) -> u.equals("alice") && p.equals("pw"))
                .withInflightChecksums(inflight);
        server = GridFtpServer.start(
                config,
                null,
                DtpFactory.local(),
                new CountingStorage(new PosixStorage(root)),
                UnaryOperator.identity());
        ftp = new FTPClient();
        ftp.setDefaultTimeout(10_000);
        ftp.connect("127.0.0.1", server.port());
        ftp.setSoTimeout(10_000);
        assertThat(ftp.login("alice", "pw")).isTrue();
        ftp.setFileType(FTP.BINARY_FILE_TYPE);
        ftp.enterLocalPassiveMode();
    }

    @AfterEach
    void stop() throws IOException {
        if (ftp != null && ftp.isConnected()) {
            ftp.disconnect();
        }
        if (server != null) {
            server.close();
        }
    }

    private static byte[] data(int size, int seed) {
        byte[] data = new byte[size];
        new Random(seed).nextBytes(data);
        return data;
    }

    private static String hex(String jdk, byte[] data) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance(jdk).digest(data));
    }

    /** @return the checksum CKSM answers */
    private String cksm(String algorithm, String path) throws IOException {
        assertThat(ftp.sendCommand("CKSM", algorithm + " 0 -1 " + path))
                .as(ftp.getReplyString())
                .isEqualTo(213);
        return ftp.getReplyString().trim().substring(4);
    }

    @Test
    void cksmAfterAStreamModeStorReadsNothingUntilTheFileChanges() throws Exception {
        start(Set.of(ChecksumAlgorithm.MD5));
        byte[] data = data(2_000_003, 1);
        assertThat(ftp.storeFile("up.bin", new ByteArrayInputStream(data))).isTrue();
        int before = reads.get();
        assertThat(cksm("MD5", "/up.bin")).isEqualTo(hex("MD5", data));
        assertThat(cksm("md5", "up.bin")).isEqualTo(hex("MD5", data));
        assertThat(reads.get()).as("opens for reading").isEqualTo(before);

        // not computed in flight: read once, then kept while the file stays as it is
        assertThat(cksm("SHA256", "/up.bin")).isEqualTo(hex("SHA-256", data));
        assertThat(reads.get()).isEqualTo(before + 1);
        assertThat(cksm("SHA256", "/up.bin")).isEqualTo(hex("SHA-256", data));
        assertThat(reads.get()).isEqualTo(before + 1);

        // changed in place, same size, its mtime set back: the change time still tells
        Path file = root.resolve("up.bin");
        FileTime mtime = Files.getLastModifiedTime(file);
        byte[] changed = data.clone();
        changed[1000] ^= 1;
        Files.write(file, changed);
        Files.setLastModifiedTime(file, mtime);
        assertThat(cksm("MD5", "/up.bin")).isEqualTo(hex("MD5", changed));
        assertThat(reads.get()).isEqualTo(before + 2);

        // replaced by another file under the same name (another inode)
        Path other = root.resolve("other.bin");
        Files.write(other, data);
        Files.move(other, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        assertThat(cksm("MD5", "/up.bin")).isEqualTo(hex("MD5", data));
        assertThat(reads.get()).isEqualTo(before + 3);
    }

    @Test
    void scksIsCheckedAgainstTheInflightChecksumWithoutReadingTheFile() throws Exception {
        start(Set.of(ChecksumAlgorithm.MD5));
        byte[] data = data(700_001, 2);
        assertThat(ftp.sendCommand("SCKS", "SHA256 " + "0".repeat(64))).isEqualTo(200);
        assertThat(ftp.storeFile("bad.bin", new ByteArrayInputStream(data))).isFalse();
        assertThat(ftp.getReplyCode()).isEqualTo(550);
        assertThat(ftp.getReplyString()).contains("GridFTP-Computed-Checksum: " + hex("SHA-256", data));
        assertThat(ftp.sendCommand("SCKS", "SHA256 " + hex("SHA-256", data))).isEqualTo(200);
        assertThat(ftp.storeFile("good.bin", new ByteArrayInputStream(data))).isTrue();
        assertThat(cksm("SHA256", "/good.bin")).isEqualTo(hex("SHA-256", data));
        assertThat(cksm("MD5", "/good.bin")).isEqualTo(hex("MD5", data));
        assertThat(reads.get()).as("opens for reading").isZero();
    }

    @Test
    void aRestartedStorAndAServerWithoutInflightChecksumsReadTheFile() throws Exception {
        start(GridFtpServerConfig.DEFAULT_INFLIGHT_CHECKSUMS); // none
        byte[] data = data(300_000, 3);
        assertThat(ftp.storeFile("up.bin", new ByteArrayInputStream(data))).isTrue();
        assertThat(cksm("MD5", "/up.bin")).isEqualTo(hex("MD5", data));
        assertThat(reads.get()).isEqualTo(1);
        assertThat(cksm("MD5", "/up.bin")).isEqualTo(hex("MD5", data));
        assertThat(reads.get()).isEqualTo(2);
        stop();
        Files.delete(root.resolve("up.bin"));
        Files.delete(root);

        start(Set.of(ChecksumAlgorithm.MD5));
        Files.write(root.resolve("up.bin"), java.util.Arrays.copyOf(data, 1000));
        ftp.setRestartOffset(1000);
        assertThat(ftp.storeFile("up.bin", new ByteArrayInputStream(data, 1000, data.length - 1000)))
                .isTrue();
        assertThat(Files.readAllBytes(root.resolve("up.bin"))).isEqualTo(data);
        assertThat(cksm("MD5", "/up.bin")).isEqualTo(hex("MD5", data));
        assertThat(reads.get()).isEqualTo(1);
        // a part of the file: read, whatever is kept
        assertThat(ftp.sendCommand("CKSM", "MD5 0 1000 /up.bin")).isEqualTo(213);
        assertThat(ftp.getReplyString().trim()).isEqualTo("213 " + hex("MD5", java.util.Arrays.copyOf(data, 1000)));
        assertThat(reads.get()).isEqualTo(2);
    }

    @Test
    void modeEOverOneConnectionIsComputedInFlightAndParallelStreamsStillGiveTheRightChecksum() throws Exception {
        start(Set.of(ChecksumAlgorithm.MD5, ChecksumAlgorithm.ADLER32));
        byte[] data = data(5_000_000, 4);
        Path local = tmp.resolve("local.bin");
        Files.write(local, data);
        try (GridFtpClient client = new GridFtpClient();
                GridFtpSession session =
                        client.open(GridFtpUrl.parse("ftp://alice:pw@127.0.0.1:" + server.port() + "/"))) {
            session.upload(local, "/p1.bin", TransferOptions.extendedBlock(1), TransferListener.NONE);
            int before = reads.get();
            assertThat(session.checksum("MD5", "/p1.bin")).isEqualTo(hex("MD5", data));
            java.util.zip.Adler32 adler = new java.util.zip.Adler32();
            adler.update(data);
            assertThat(session.checksum("ADLER32", "/p1.bin")).isEqualTo(String.format("%08x", adler.getValue()));
            assertThat(reads.get()).as("opens for reading").isEqualTo(before);

            // blocks from four connections: computed in flight only if they happened to come in order
            session.upload(local, "/p4.bin", TransferOptions.extendedBlock(4), TransferListener.NONE);
            assertThat(session.checksum("MD5", "/p4.bin")).isEqualTo(hex("MD5", data));
        }
    }

    /** The server's storage, counting every open of a file for reading. */
    private final class CountingStorage implements StorageInterface {
        private final StorageInterface storage;

        CountingStorage(StorageInterface storage) {
            this.storage = storage;
        }

        @Override
        public FileStat stat(String virtualPath) throws StorageException {
            return storage.stat(virtualPath);
        }

        @Override
        public List<FileStat> list(String virtualPath) throws StorageException {
            return storage.list(virtualPath);
        }

        @Override
        public FileChannel openForRead(String virtualPath) throws StorageException {
            reads.incrementAndGet();
            return storage.openForRead(virtualPath);
        }

        @Override
        public FileChannel openForWrite(String virtualPath, long truncateTo) throws StorageException {
            return storage.openForWrite(virtualPath, truncateTo);
        }

        @Override
        public Optional<FileIdentity> identity(String virtualPath) throws StorageException {
            return storage.identity(virtualPath);
        }

        @Override
        public void createDirectory(String virtualPath) throws StorageException {
            storage.createDirectory(virtualPath);
        }

        @Override
        public void removeDirectory(String virtualPath) throws StorageException {
            storage.removeDirectory(virtualPath);
        }

        @Override
        public void delete(String virtualPath) throws StorageException {
            storage.delete(virtualPath);
        }

        @Override
        public void rename(String fromVirtualPath, String toVirtualPath) throws StorageException {
            storage.rename(fromVirtualPath, toVirtualPath);
        }

        @Override
        public void setModified(String virtualPath, Instant modified) throws StorageException {
            storage.setModified(virtualPath, modified);
        }
    }
}
