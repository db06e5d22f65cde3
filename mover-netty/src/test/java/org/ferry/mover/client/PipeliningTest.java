package org.ferry.mover.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Batches with pipelining (GridFTP pipelining (Bresnahan et al., TeraGrid 2007)) between two Ferry servers: every file
 * arrives intact, completions are reported in order, a failed file stops the batch with the files
 * before it done and the sessions still usable.
 */
class PipeliningTest extends TwoFerryServers {

    Path local;
    List<byte[]> contents = new ArrayList<>();

    @BeforeEach
    void start() throws IOException {
        local = Files.createDirectory(tmp.resolve("local"));
        Random random = new Random(7);
        for (int i = 0; i < 25; i++) {
            byte[] data = new byte[i == 3 ? 0 : random.nextInt(400_000)];
            random.nextBytes(data);
            contents.add(data);
            Files.write(sourceRoot.resolve("f" + i), data);
        }
    }

    /** Records completions. */
    static final class Completions implements TransferListener {
        final List<String> files = Collections.synchronizedList(new ArrayList<>());
        long bytes;

        @Override
        public void onFileCompleted(FilePair file, long bytesTransferred) {
            files.add(file.source());
            bytes += bytesTransferred;
        }
    }

    @Test
    void thirdPartyUploadAndDownloadBatchesArriveIntact() throws Exception {
        List<FilePair> third = new ArrayList<>();
        List<FilePair> down = new ArrayList<>();
        List<FilePair> up = new ArrayList<>();
        long total = 0;
        for (int i = 0; i < contents.size(); i++) {
            third.add(new FilePair("/f" + i, "/t" + i));
            down.add(new FilePair("/f" + i, local.resolve("d" + i).toString()));
            up.add(new FilePair(local.resolve("d" + i).toString(), "/u" + i));
            total += contents.get(i).length;
        }
        try (DefaultGridFtpSession src = open(source);
                DefaultGridFtpSession dst = open(destination)) {
            Completions completions = new Completions();
            assertThat(src.sendAll(third, dst, TransferOptions.extendedBlock(2), 8, completions))
                    .isEqualTo(total);
            assertThat(completions.files)
                    .containsExactlyElementsOf(
                            third.stream().map(FilePair::source).toList());
            assertThat(completions.bytes).isEqualTo(total);
            assertThat(src.downloadAll(down, TransferOptions.extendedBlock(3), 10, TransferListener.NONE))
                    .isEqualTo(total);
            assertThat(dst.uploadAll(up, TransferOptions.extendedBlock(2), 5, TransferListener.NONE))
                    .isEqualTo(total);
            for (int i = 0; i < contents.size(); i++) {
                assertThat(Files.readAllBytes(destinationRoot.resolve("t" + i)))
                        .as("t%d", i)
                        .isEqualTo(contents.get(i));
                assertThat(Files.readAllBytes(local.resolve("d" + i)))
                        .as("d%d", i)
                        .isEqualTo(contents.get(i));
                assertThat(Files.readAllBytes(destinationRoot.resolve("u" + i)))
                        .as("u%d", i)
                        .isEqualTo(contents.get(i));
            }
            assertThat(src.dataSetups())
                    .as("one PORT for the third-party batch, one for the downloads")
                    .isEqualTo(2);
            assertThat(dst.dataSetups())
                    .as("one PASV for the third-party batch, one for the uploads")
                    .isEqualTo(2);
            // stream mode: the same API, files one by one
            assertThat(src.sendAll(third.subList(0, 3), dst, TransferOptions.STREAM, 4, TransferListener.NONE))
                    .isEqualTo(contents.get(0).length + contents.get(1).length + contents.get(2).length);
        }
    }

    @Test
    void aFailedFileStopsTheBatchAndTheSessionsStayUsable() throws Exception {
        List<FilePair> files = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            files.add(new FilePair("/f" + i, i == 6 ? "/no/such/dir/t6" : "/t" + i));
        }
        try (DefaultGridFtpSession src = open(source);
                DefaultGridFtpSession dst = open(destination)) {
            Completions completions = new Completions();
            assertThatThrownBy(() -> src.sendAll(files, dst, TransferOptions.extendedBlock(2), 4, completions))
                    .isInstanceOf(GridFtpReplyException.class)
                    .hasMessageContaining("/no/such/dir/t6");
            assertThat(completions.files).containsExactly("/f0", "/f1", "/f2", "/f3", "/f4", "/f5");
            for (int i = 0; i < 6; i++) {
                assertThat(Files.readAllBytes(destinationRoot.resolve("t" + i))).isEqualTo(contents.get(i));
            }
            // both sessions are in step: a plain transfer works
            src.sendTo("/f9", dst, "/again", TransferOptions.extendedBlock(2), TransferListener.NONE);
            assertThat(Files.readAllBytes(destinationRoot.resolve("again"))).isEqualTo(contents.get(9));
            assertThatThrownBy(() -> src.sendAll(
                            List.of(new FilePair("/missing", "/x")),
                            dst,
                            TransferOptions.extendedBlock(1),
                            2,
                            TransferListener.NONE))
                    .isInstanceOf(java.nio.file.NoSuchFileException.class);
        }
    }
}
