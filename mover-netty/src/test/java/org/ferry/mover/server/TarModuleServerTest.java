package org.ferry.mover.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.archivers.tar.TarConstants;
import org.ferry.mover.protocol.TarModule;
import org.junit.jupiter.api.Test;

/**
 * The TAR module of ERET and ESTO on the wire (stream mode, raw data sockets): ERET TAR sends the
 * named files as one tar stream, ESTO TAR unpacks one, and nothing a client names or sends reaches
 * outside the directory and the root.
 */
class TarModuleServerTest extends ServerTestSupport {

    /** Runs a data command over a fresh PASV connection in stream mode; @return the final reply code. */
    private int retrieve(String command, ByteArrayOutputStream into) throws IOException {
        try (Socket data = new Socket("127.0.0.1", pasv())) {
            int first = send(command);
            if (first != 150) {
                return first;
            }
            into.write(data.getInputStream().readAllBytes());
        }
        ftp.getReply();
        return ftp.getReplyCode();
    }

    private int store(String command, byte[] bytes) throws IOException {
        try (Socket data = new Socket("127.0.0.1", pasv())) {
            int first = send(command);
            if (first != 150) {
                return first;
            }
            data.getOutputStream().write(bytes);
        }
        ftp.getReply();
        return ftp.getReplyCode();
    }

    private static byte[] tar(Map<String, byte[]> files) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (TarArchiveOutputStream tar = new TarArchiveOutputStream(out)) {
            tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
            for (Map.Entry<String, byte[]> file : files.entrySet()) {
                TarArchiveEntry entry = new TarArchiveEntry(file.getKey(), true);
                entry.setSize(file.getValue().length);
                tar.putArchiveEntry(entry);
                tar.write(file.getValue());
                tar.closeArchiveEntry();
            }
        }
        return out.toByteArray();
    }

    @Test
    void featOffersTheModule() throws IOException {
        login();
        assertThat(send("FEAT")).isEqualTo(211);
        assertThat(ftp.getReplyStrings()).contains(" " + TarModule.FEATURE);
    }

    @Test
    void eretTarSendsTheNamedFilesInOrder() throws IOException {
        login();
        Files.createDirectory(root.resolve("d"));
        Map<String, byte[]> files = new LinkedHashMap<>();
        files.put("b with space", "second".getBytes(StandardCharsets.UTF_8));
        files.put("a", "first".getBytes(StandardCharsets.UTF_8));
        files.put("empty", new byte[0]);
        files.put("ünï+%", new byte[70_000]);
        for (Map.Entry<String, byte[]> file : files.entrySet()) {
            Files.write(root.resolve("d").resolve(file.getKey()), file.getValue());
        }
        ByteArrayOutputStream stream = new ByteArrayOutputStream();
        assertThat(retrieve("ERET " + TarModule.retrieveArgument(List.copyOf(files.keySet()), "/d"), stream))
                .isEqualTo(226);
        Map<String, byte[]> got = new LinkedHashMap<>();
        try (TarArchiveInputStream in = new TarArchiveInputStream(new ByteArrayInputStream(stream.toByteArray()))) {
            TarArchiveEntry entry;
            while ((entry = in.getNextEntry()) != null) {
                got.put(entry.getName(), in.readAllBytes());
            }
        }
        assertThat(got.keySet()).containsExactlyElementsOf(files.keySet());
        files.forEach((name, data) -> assertThat(got.get(name)).as(name).isEqualTo(data));
    }

    @Test
    void eretTarRefusesMissingFilesLinksOutOfTheRootAndBadParameters() throws IOException {
        login();
        Files.createDirectory(root.resolve("d"));
        Files.writeString(root.resolve("d/ok"), "ok");
        Files.createSymbolicLink(root.resolve("d/leak"), outside.resolve("secret.txt"));
        Files.createSymbolicLink(root.resolve("d/inside"), root.resolve("d/ok"));
        ByteArrayOutputStream stream = new ByteArrayOutputStream();
        assertThat(retrieve("ERET TAR=\"ok/gone\" /d", stream)).isEqualTo(550);
        assertThat(ftp.getReplyString()).contains("/d/gone");
        assertThat(retrieve("ERET TAR=\"ok/leak\" /d", stream)).isEqualTo(550);
        assertThat(ftp.getReplyString()).contains("Permission denied");
        assertThat(stream.toString(StandardCharsets.ISO_8859_1)).doesNotContain("top secret");
        assertThat(retrieve("ERET TAR=\"inside\" /d", stream))
                .as("a link inside the root is followed")
                .isEqualTo(226);
        assertThat(send("ERET TAR=\"..\" /d")).isEqualTo(501);
        assertThat(send("ERET TAR=\"\" /d")).isEqualTo(501);
        assertThat(send("ERET TAR=\"a\"")).isEqualTo(501);
        assertThat(send("ESTO TAR=\"\" /d/ok")).isEqualTo(550);
        assertAlive();
    }

    @Test
    void estoTarUnpacksRegularFiles() throws IOException {
        login();
        Files.createDirectory(root.resolve("in"));
        Files.writeString(root.resolve("in/old"), "to be replaced by a longer or shorter content");
        Map<String, byte[]> files = new LinkedHashMap<>();
        files.put("old", "new".getBytes(StandardCharsets.UTF_8));
        files.put("x y", new byte[123_456]);
        files.put("zero", new byte[0]);
        assertThat(store("ESTO " + TarModule.storeArgument("/in"), tar(files))).isEqualTo(226);
        for (Map.Entry<String, byte[]> file : files.entrySet()) {
            assertThat(Files.readAllBytes(root.resolve("in").resolve(file.getKey())))
                    .isEqualTo(file.getValue());
        }
    }

    @Test
    void estoTarRefusesEntriesThatLeaveTheDirectory() throws IOException {
        login();
        Files.createDirectory(root.resolve("in"));
        Files.createSymbolicLink(root.resolve("in/trap"), outside.resolve("secret.txt"));
        List<byte[]> attacks = new ArrayList<>();
        attacks.add(tar(Map.of("../escape", "x".getBytes(StandardCharsets.UTF_8))));
        attacks.add(tar(Map.of("/abs", "x".getBytes(StandardCharsets.UTF_8))));
        attacks.add(tar(Map.of("sub/x", "x".getBytes(StandardCharsets.UTF_8))));
        ByteArrayOutputStream link = new ByteArrayOutputStream();
        try (TarArchiveOutputStream tar = new TarArchiveOutputStream(link)) {
            TarArchiveEntry entry = new TarArchiveEntry("ln", TarConstants.LF_SYMLINK);
            entry.setLinkName("../../outside/secret.txt");
            tar.putArchiveEntry(entry);
            tar.closeArchiveEntry();
        }
        attacks.add(link.toByteArray());
        for (int i = 0; i < attacks.size(); i++) {
            assertThat(store("ESTO TAR=\"\" /in", attacks.get(i)))
                    .as("attack %d", i)
                    .isEqualTo(553);
        }
        // a symbolic link already in the directory is not written through
        assertThat(store("ESTO TAR=\"\" /in", tar(Map.of("trap", "overwritten".getBytes(StandardCharsets.UTF_8)))))
                .isEqualTo(550);
        assertThat(Files.readString(outside.resolve("secret.txt"))).isEqualTo("top secret");
        assertThat(tmp.resolve("escape")).doesNotExist();
        assertThat(root.resolve("escape")).doesNotExist();
        try (InputStream listing = Files.newInputStream(outside.resolve("secret.txt"))) {
            assertThat(listing.readAllBytes()).hasSize(10);
        }
        // garbage is a malformed stream, not a crash
        assertThat(store(
                        "ESTO TAR=\"\" /in",
                        "this is not a tar stream at all".repeat(40).getBytes(StandardCharsets.UTF_8)))
                .isIn(451, 553);
        assertAlive();
    }
}
