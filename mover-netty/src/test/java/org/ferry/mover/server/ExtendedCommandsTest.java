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

/** CKSM over ranges with every algorithm, SCKS, ERET P and ESTO A (GFD.020 "ERET"/"ESTO"; GFD.047 "CKSM"). */
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
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        crc.update(data, 3, data.length - 3);
        assertThat(send("CKSM crc32c 3 -1 /f.bin")).isEqualTo(213);
        assertThat(ftp.getReplyString().trim()).isEqualTo("213 " + String.format("%08x", crc.getValue()));
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
        assertThat(ftp.getReplyString())
                .contains("GridFTP-Computed-Checksum: " + hex("MD5", data, 0, data.length))
                .contains("GridFTP-Expected-Checksum: 00000000000000000000000000000000");
        assertThat(send("SCKS SHA256 " + hex("SHA-256", data, 0, data.length).toUpperCase()))
                .isEqualTo(200);
        assertThat(ftp.storeFile("up.bin", new ByteArrayInputStream(data))).isTrue();
        // SCKS applied to that STOR only
        assertThat(ftp.storeFile("up2.bin", new ByteArrayInputStream(new byte[] {1})))
                .isTrue();
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
        var m = java.util.regex.Pattern.compile("\\((\\d+),(\\d+),(\\d+),(\\d+),(\\d+),(\\d+)\\)")
                .matcher(reply);
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
        m = java.util.regex.Pattern.compile("\\((\\d+),(\\d+),(\\d+),(\\d+),(\\d+),(\\d+)\\)")
                .matcher(ftp.getReplyString());
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

    @Test
    void bufferCommandsAreAccepted() throws Exception {
        login();
        for (String command : new String[] {
            "SBUF 262144",
            "SITE RETRBUFSIZE 131072",
            "SITE RBUFSZ 1",
            "SITE RBUFSIZ 2",
            "SITE STORBUFSIZE 3",
            "SITE SBUFSZ 4",
            "SITE SBUFSIZ 5",
            "SITE SBUF 65536"
        }) {
            assertThat(send(command)).as(command).isEqualTo(200);
        }
        assertThat(send("SITE RETRBUFSIZE x")).isEqualTo(501);
        assertThat(send("SBUF -1")).isEqualTo(501);
        assertThat(send("SITE BUFSIZE 10")).as("globus does not have it either").isEqualTo(500);
        // a transfer after the buffer commands still works
        ftp.setFileType(FTP.BINARY_FILE_TYPE);
        ftp.enterLocalPassiveMode();
        byte[] data = file();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertThat(ftp.retrieveFile("/f.bin", out)).isTrue();
        assertThat(out.toByteArray()).isEqualTo(data);
    }

    @Test
    void mfmtSiteUtimeAndSiteChmodChangeTheFile() throws Exception {
        login();
        file();
        java.nio.file.Path f = root.resolve("f.bin");
        assertThat(send("MFMT 20200102030405 /f.bin")).isEqualTo(250);
        assertThat(Files.getLastModifiedTime(f).toInstant()).isEqualTo(java.time.Instant.parse("2020-01-02T03:04:05Z"));
        assertThat(send("SITE UTIME 20210304050607 f.bin")).isEqualTo(250);
        assertThat(Files.getLastModifiedTime(f).toInstant()).isEqualTo(java.time.Instant.parse("2021-03-04T05:06:07Z"));
        assertThat(send("SITE CHMOD 640 /f.bin")).isEqualTo(250);
        assertThat(java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(f)))
                .isEqualTo("rw-r-----");
        assertThat(send("MFMT 2020 /f.bin")).isEqualTo(501);
        assertThat(send("SITE CHMOD 9 /f.bin")).isEqualTo(501);
        assertThat(send("MFMT 20200102030405 /missing")).isEqualTo(550);
        assertAlive();
    }

    @Test
    void mlscAndStatAnswerOnTheControlChannel() throws Exception {
        login();
        file();
        Files.createDirectory(root.resolve("sub"));
        assertThat(send("MLSC /")).isEqualTo(250);
        String[] lines = ftp.getReplyStrings();
        assertThat(lines[0]).isEqualTo("250-Contents of /");
        assertThat(lines[lines.length - 1]).isEqualTo("250 End.");
        assertThat(String.join("\n", lines))
                .contains("Type=file;")
                .contains(" f.bin")
                .contains("Type=dir;")
                .contains("Size=1000003;");
        assertThat(send("MLSC /f.bin")).isEqualTo(550);
        assertThat(send("STAT")).isEqualTo(212);
        assertThat(send("STAT /f.bin")).isEqualTo(213);
        assertThat(ftp.getReplyString()).contains("1000003").contains("f.bin").contains("213 End.");
        assertAlive();
    }
}
