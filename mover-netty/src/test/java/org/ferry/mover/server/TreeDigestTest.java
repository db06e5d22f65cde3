package org.ferry.mover.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code CKSM SHA256-TREE 0 -1 dir}: one digest for a whole tree, the same as {@code
 * bin/ferry-treedigest} (find, sort, sha256sum) prints for it, and changed by any byte, name or file
 * added below it.
 */
class TreeDigestTest extends ServerTestSupport {

    private static final Path SCRIPT =
            Path.of("../bin/ferry-treedigest").toAbsolutePath().normalize();

    private String treeDigest(String path) throws IOException {
        assertThat(send("CKSM SHA256-TREE 0 -1 " + path))
                .as(ftp.getReplyString())
                .isEqualTo(213);
        return ftp.getReplyString().strip().substring(4);
    }

    private static String script(Path dir) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(List.of(SCRIPT.toString(), dir.toString()))
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertThat(process.waitFor()).isZero();
        return out;
    }

    @Test
    void equalsWhatTheScriptPrintsAndChangesWithTheTree() throws Exception {
        login();
        Path tree = root.resolve("tree");
        Files.createDirectories(tree.resolve("a/b"));
        Files.createDirectories(tree.resolve("a-c")); // '-' sorts before '/': a-c/x before a/b/...
        Files.createDirectories(tree.resolve("empty"));
        Files.writeString(tree.resolve("a/b/one.txt"), "one");
        Files.writeString(tree.resolve("a-c/x"), "x");
        Files.writeString(tree.resolve("with space.txt"), "spaced");
        Files.write(tree.resolve("zero"), new byte[0]);
        Files.writeString(tree.resolve("\u00e9t\u00e9.txt"), "summer");
        String digest = treeDigest("/tree");
        assertThat(digest).hasSize(64).isEqualTo(script(tree));

        Files.writeString(tree.resolve("a/b/one.txt"), "One");
        String changed = treeDigest("/tree");
        assertThat(changed).isNotEqualTo(digest).isEqualTo(script(tree));
        Files.move(tree.resolve("zero"), tree.resolve("zero2"));
        assertThat(treeDigest("/tree")).isNotEqualTo(changed).isEqualTo(script(tree));
    }

    @Test
    void anEmptyTreeHasTheDigestOfNothing() throws Exception {
        login();
        Files.createDirectories(root.resolve("nothing/empty"));
        assertThat(treeDigest("/nothing"))
                .isEqualTo("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
                .isEqualTo(script(root.resolve("nothing")));
    }

    @Test
    void filesPartialRangesAndTheOutsideAreRefused() throws Exception {
        login();
        Files.writeString(root.resolve("f"), "file");
        Files.createDirectories(root.resolve("d"));
        assertThat(send("CKSM SHA256-TREE 0 -1 /f")).isEqualTo(550);
        assertThat(send("CKSM SHA256-TREE 5 10 /d")).isEqualTo(501);
        assertThat(send("CKSM SHA256-TREE 0 -1 /../outside")).isGreaterThanOrEqualTo(500);
        assertThat(send("FEAT")).isEqualTo(211);
        assertThat(ftp.getReplyString()).contains("SHA256-TREE;");
        assertAlive();
    }
}
