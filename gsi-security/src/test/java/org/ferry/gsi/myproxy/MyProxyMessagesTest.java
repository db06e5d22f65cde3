package org.ferry.gsi.myproxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** MYPROXYv2 message encoding and reply parsing (myproxy PROTOCOL appendix A; reference 6). */
class MyProxyMessagesTest {

    @Test
    void getRequestIsNulTerminatedKeyValueLines() throws Exception {
        char[] pass = "s3cret pass".toCharArray();
        byte[] req = MyProxyMessages.getRequest("alice", pass, 43200);
        assertThat(new String(req, StandardCharsets.UTF_8))
                .isEqualTo("VERSION=MYPROXYv2\nCOMMAND=0\nUSERNAME=alice\nPASSPHRASE=s3cret pass\nLIFETIME=43200\n\0");
        assertThatThrownBy(() -> MyProxyMessages.getRequest("a\nb", pass, 1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> MyProxyMessages.getRequest("a", "x\ny".toCharArray(), 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageNotContaining("x\ny");
    }

    @Test
    void parsesOkErrorAndMalformedResponses() throws Exception {
        assertThat(MyProxyMessages.parseResponse("VERSION=MYPROXYv2\nRESPONSE=0\n\0")
                        .code())
                .isZero();
        MyProxyMessages.Response err = MyProxyMessages.parseResponse(
                "VERSION=MYPROXYv2\nRESPONSE=1\nERROR=Bad password\nERROR=invalid credential passphrase\n");
        assertThat(err.code()).isEqualTo(1);
        assertThat(err.errors()).containsExactly("Bad password", "invalid credential passphrase");
        assertThatThrownBy(() -> MyProxyMessages.parseResponse("VERSION=MYPROXYv1\nRESPONSE=0\n"))
                .hasMessageContaining("unsupported MyProxy protocol version");
        assertThatThrownBy(() -> MyProxyMessages.parseResponse("garbage"))
                .hasMessage("MyProxy server reply has no RESPONSE line");
    }

    @Test
    void trustRootsComeAsAFileListAndOneBase64LinePerFile() throws Exception {
        byte[] request = MyProxyMessages.getRequest("alice", "p".toCharArray(), 60, true);
        assertThat(new String(request, StandardCharsets.UTF_8)).endsWith("LIFETIME=60\nTRUSTED_CERTS=1\n\0");
        MyProxyMessages.Response r = MyProxyMessages.parseResponse("\0VERSION=MYPROXYv2\nRESPONSE=0\n"
                + "TRUSTED_CERTS=0123abcd.0,0123abcd.signing_policy\n"
                + "FILEDATA_0123abcd.0=Y2VydA==\nFILEDATA_0123abcd.signing_policy=cG9saWN5\n\0");
        assertThat(r.trustRoots()).containsOnlyKeys("0123abcd.0", "0123abcd.signing_policy");
        assertThat(new String(r.trustRoots().get("0123abcd.signing_policy"), StandardCharsets.US_ASCII))
                .isEqualTo("policy");
        assertThatThrownBy(() ->
                        MyProxyMessages.parseResponse("VERSION=MYPROXYv2\nRESPONSE=0\nTRUSTED_CERTS=0123abcd.0\n"))
                .hasMessageContaining("without its FILEDATA");
    }

    @Test
    void certificateReplyIsCountThenDerSequences() throws Exception {
        byte[] a = {0x30, 0x03, 1, 2, 3};
        byte[] b = new byte[4 + 300];
        b[0] = 0x30;
        b[1] = (byte) 0x82;
        b[2] = 0x01;
        b[3] = 0x2c; // 300
        byte[] reply = new byte[1 + a.length + b.length];
        reply[0] = 2;
        System.arraycopy(a, 0, reply, 1, a.length);
        System.arraycopy(b, 0, reply, 1 + a.length, b.length);
        List<byte[]> certs = MyProxyClient.parseCertificates(reply);
        assertThat(certs).hasSize(2);
        assertThat(certs.get(0)).isEqualTo(a);
        assertThat(certs.get(1)).hasSize(304);
        // Incomplete: wait for more bytes.
        assertThat(MyProxyClient.parseCertificates(java.util.Arrays.copyOf(reply, reply.length - 1)))
                .isNull();
        assertThatThrownBy(() -> MyProxyClient.parseCertificates(new byte[] {1, 0x31, 0}))
                .isInstanceOf(MyProxyException.class);
        assertThatThrownBy(() -> MyProxyClient.parseCertificates(new byte[] {0}))
                .hasMessage("MyProxy server sent no certificates");
    }
}
