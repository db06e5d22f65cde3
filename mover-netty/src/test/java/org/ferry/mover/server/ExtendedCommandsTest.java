package org.ferry.mover.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Random;
import java.util.zip.Adler32;
import org.apache.commons.net.ftp.FTP;
import org.junit.jupiter.api.Test;

/** CKSM over ranges with every algorithm, SCKS, ERET P and ESTO A (gridftp-protocol.md 2.5, 2.9). */
class ExtendedCommandsTest extends ServerTestSupport {

    private static String hex(String jdk, byte[] data, int from, int to) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance(jdk).digest(Arrays.copyOfRange(data, from, to)));
    }

    private byte[] file() throws Exception {
        byte[] data = new byte[1_000_003];
        new Random(3).nextBytes(data);
        Files.write(root.resolve("f.bin"), data);
        return data;
    }

    @Test
    void cksmComputesEveryAlgorithmOverRanges() throws Exception {
        login();
        byte[] data = file();
        assertThat(send("CKSM md5 0 -1 /f.bin")).isEqualTo(213);
        assertThat(ftp.getReplyString().trim()).isEqualTo("213 " + hex("MD5", data, 0, data.length));
        assertThat(send("CKSM SHA1 10 100 /f.bin")).isEqualTo(213);
        assertThat(ftp.getReplyString().trim()).isEqualTo("213 " + hex("SHA-1", data, 10, 110));
        assertThat(send("CKSM SHA256 999000 -1 /f.bin")).isEqualTo(213);
        assertThat(ftp.getReplyString().trim()).isEqualTo("213 " + hex("SHA-256", data, 999_000, data.length));
        assertThat(send("CKSM Sha512 0 5000000 /f.bin")).isEqualTo(213);
        assertThat(ftp.getReplyString().trim()).isEqualTo("213 " + hex("SHA-512", data, 0, data.length));
        Adler32 adler = new Adler32();
        adler.update(data, 5, 1);
        assertThat(send("CKSM ADLER32 5 1 /f.bin")).isEqualTo(213);
        assertThat(ftp.getReplyString().trim()).isEqualTo("213 " + String.format("%08x", adler.getValue()));
        assertThat(send("CKSM CRC32 0 -1 /f.bin")).isEqualTo(504);
        assertThat(send("CKSM MD5 0 -2 /f.bin")).isEqualTo(501);
        assertAlive();
    }

    @Test
    void scksRefusesAMismatchingUploadAndAcceptsAMatchingOne() throws Exception {
        login();
        ftp.setFileType(FTP.BINARY_FILE_TYPE);
        ftp.enterLocalPassiveMode();
        byte[] data = file();
        assertThat(send("SCKS MD5 00000000000000000000000000000000")).isEqualTo(200);
        assertThat(ftp.storeFile("up.bin", new ByteArrayInputStream(data))).isFalse();
        assertThat(ftp.getReplyCode()).as(ftp.getReplyString()).isEqualTo(550);
        assertThat(ftp.getReplyString()).contains("GridFTP-Computed-Checksum: " + hex("MD5", data, 0, data.length))
                .contains("GridFTP-Expected-Checksum: 00000000000000000000000000000000");
        assertThat(send("SCKS SHA256 " + hex("SHA-256", data, 0, data.length).toUpperCase())).isEqualTo(200);
        assertThat(ftp.storeFile("up.bin", new ByteArrayInputStream(data))).isTrue();
        // SCKS applied to that STOR only
        assertThat(ftp.storeFile("up2.bin", new ByteArrayInputStream(new byte[] {1}))).isTrue();
        assertThat(send("SCKS FOO 12")).isEqualTo(504);
        assertAlive();
    }

    @Test
    void eretAndEstoMoveAWindow() throws Exception {
        login();
        ftp.setFileType(FTP.BINARY_FILE_TYPE);
        ftp.enterLocalPassiveMode();
        byte[] data = file();
        ByteArrayOutputStream window = new ByteArrayOutputStream();
        assertThat(ftp.retrieveFile("/f.bin", window)).isTrue(); // warm-up: plain RETR works
        window.reset();
        // commons-net has no ERET: drive it as a raw data command
        assertThat(ftp.pasv()).isEqualTo(227);
        String reply = ftp.getReplyString();
        var m = java.util.regex.Pattern.compile("\\((\\d+),(\\d+),(\\d+),(\\d+),(\\d+),(\\d+)\\)").matcher(reply);
        assertThat(m.find()).isTrue();
        int port = Integer.parseInt(m.group(5)) * 256 + Integer.parseInt(m.group(6));
        try (java.net.Socket s = new java.net.Socket("127.0.0.1", port)) {
            assertThat(send("ERET P 1000 2500 /f.bin")).isEqualTo(150);
            window.write(s.getInputStream().readAllBytes());
            ftp.getReply();
            assertThat(ftp.getReplyCode()).isEqualTo(226);
        }
        assertThat(window.toByteArray()).isEqualTo(Arrays.copyOfRange(data, 1000, 3500));
        // ESTO A: write 3 bytes at 10 into the existing file, nothing else changes
        assertThat(ftp.pasv()).isEqualTo(227);
        m = java.util.regex.Pattern.compile("\\((\\d+),(\\d+),(\\d+),(\\d+),(\\d+),(\\d+)\\)").matcher(ftp.getReplyString());
        assertThat(m.find()).isTrue();
        port = Integer.parseInt(m.group(5)) * 256 + Integer.parseInt(m.group(6));
        try (java.net.Socket s = new java.net.Socket("127.0.0.1", port)) {
            assertThat(send("ESTO A 10 /f.bin")).isEqualTo(150);
            s.getOutputStream().write(new byte[] {7, 8, 9});
            s.close();
            ftp.getReply();
            assertThat(ftp.getReplyCode()).isEqualTo(226);
        }
        byte[] expected = data.clone();
        expected[10] = 7;
        expected[11] = 8;
        expected[12] = 9;
        assertThat(Files.readAllBytes(root.resolve("f.bin"))).isEqualTo(expected);
        assertThat(send("ERET X 1 2 /f.bin")).isEqualTo(504);
        assertThat(send("ERET P x 2 /f.bin")).isEqualTo(500);
        assertThat(send("ESTO A 5")).isEqualTo(501);
        assertAlive();
    }
}
