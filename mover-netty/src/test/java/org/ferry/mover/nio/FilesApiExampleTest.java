package org.ferry.mover.nio;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.ferry.mover.server.GridFtpServer;
import org.ferry.mover.server.pi.GridFtpServerConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The example of docs/files-api.md, run: {@link #readSlice} is the snippet (the test checks that
 * the page shows exactly this code), reading 1 MiB at 1.5 GiB of a 2 GiB file (sparse, so cheap to
 * make) from ferry-gridftp through {@code Path.of(URI)}.
 */
class FilesApiExampleTest {

    @TempDir
    Path root;

    // snippet:start
    static byte[] readSlice(URI uri, long offset, int length) throws IOException {
        Path file = Path.of(uri); // e.g. gsiftp://dtn.example.org/data/run1/x.h5
        try (SeekableByteChannel channel = Files.newByteChannel(file)) {
            ByteBuffer slice = ByteBuffer.allocate(length);
            channel.position(offset); // one partial retrieve: ERET P offset length
            while (slice.hasRemaining() && channel.read(slice) > 0) {
                // a read may return fewer bytes than asked
            }
            return Arrays.copyOf(slice.array(), slice.position());
        }
    }
    // snippet:end

    @Test
    void readsASliceOfARemoteHdf5SizedFile() throws IOException {
        long size = 2L << 30;
        long offset = 3L << 29; // 1.5 GiB
        byte[] expected = new byte[1 << 20];
        new SplittableRandom(5).nextBytes(expected);
        try (RandomAccessFile file = new RandomAccessFile(root.resolve("x.h5").toFile(), "rw")) {
            file.setLength(size);
            file.seek(offset);
            file.write(expected);
        }
        try (GridFtpServer server =
                GridFtpServer.start(GridFtpServerConfig.loopback(root).withAnonymousAllowed(true))) {
            URI uri = URI.create("ftp://127.0.0.1:" + server.port() + "/x.h5");
            assertThat(readSlice(uri, offset, expected.length)).isEqualTo(expected);
            assertThat(readSlice(uri, size - 10, 100)).hasSize(10).containsOnly(0); // cut at the end
            Path.of(uri).getFileSystem().close();
        }
    }

    @Test
    void thePageShowsThisCode() throws IOException {
        String page = Files.readString(Path.of("..", "docs", "files-api.md"), StandardCharsets.UTF_8);
        Matcher block = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL).matcher(page);
        assertThat(block.find()).as("a java block in docs/files-api.md").isTrue();
        String source = Files.readString(
                Path.of("src/test/java/org/ferry/mover/nio/FilesApiExampleTest.java"), StandardCharsets.UTF_8);
        String snippet = source.substring(
                source.indexOf("// snippet:start") + "// snippet:start".length(), source.indexOf("    // snippet:end"));
        String unindented = snippet.lines()
                .map(line -> line.startsWith("    ") ? line.substring(4) : line)
                .collect(java.util.stream.Collectors.joining("\n"));
        assertThat(block.group(1).strip()).isEqualTo(unindented.strip());
    }
}
