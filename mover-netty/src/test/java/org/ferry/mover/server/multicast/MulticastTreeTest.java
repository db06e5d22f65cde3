package org.ferry.mover.server.multicast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.ferry.mover.server.pi.FtpException;
import org.ferry.mover.server.popen.DriverStack;
import org.junit.jupiter.api.Test;

class MulticastTreeTest {

    @Test
    void theDiskStackReadsBackAsTheSameTreeWithAwkwardUrls() throws Exception {
        List<String> urls =
                List.of("ftp://al%3Bice:p%23w@h1:2811/", "gsiftp://h2:2812/", "ftp://u:a,b=c@h3/", "gsiftp://h4/");
        MulticastTree tree = new MulticastTree(urls, 3, 8);
        DriverStack stack = DriverStack.parse(tree.diskStack());
        assertThat(stack.drivers()).extracting(DriverStack.Driver::name).containsExactly("file", "gridftp_multicast");
        assertThat(MulticastTree.fromOptions(stack.drivers().get(1).options())).isEqualTo(tree);
    }

    @Test
    void theFirstCcUrlsAreChildrenAndTheRestIsDealtInRuns() {
        List<String> urls = List.of("ftp://a/", "ftp://b/", "ftp://c/", "ftp://d/", "ftp://e/", "ftp://f/", "ftp://g/");
        List<MulticastTree.Branch> branches = new MulticastTree(urls, 2, 1).branches();
        assertThat(branches).extracting(MulticastTree.Branch::url).containsExactly("ftp://a/", "ftp://b/");
        assertThat(branches.get(0).below().urls()).containsExactly("ftp://c/", "ftp://d/", "ftp://e/");
        assertThat(branches.get(1).below().urls()).containsExactly("ftp://f/", "ftp://g/");
        assertThat(new MulticastTree(List.of("ftp://a/"), 4, 1).branches())
                .containsExactly(new MulticastTree.Branch("ftp://a/", null));
    }

    @Test
    void badOptionsAreRefusedByName() {
        assertThatThrownBy(() -> MulticastTree.fromOptions(java.util.Map.of("urls", "#http://x/")))
                .isInstanceOf(FtpException.class)
                .hasMessageContaining("bad URL");
        assertThatThrownBy(() -> MulticastTree.fromOptions(java.util.Map.of("urls", "#ftp://x/", "cc", "two")))
                .isInstanceOf(FtpException.class)
                .hasMessageContaining("cc");
        assertThatThrownBy(() -> MulticastTree.fromOptions(java.util.Map.of("hops", "1")))
                .isInstanceOf(FtpException.class)
                .hasMessageContaining("hops");
    }

    @Test
    void globusUrlCopysWholeEncodedOptionsAreRead() throws Exception {
        // what globus-url-copy -mc sends (guc_build_mc_str): the URLs encoded, then the whole string
        String stack = "file,gridftp_multicast:%3Burls%3D%23ftp%253A%2F%2Fh2%253A2811%2Fdata%2Fx.h5%3F"
                + "%23ftp%253A%2F%2Fh3%253A2811%2Fdata%2Fx.h5%3F";
        DriverStack parsed = DriverStack.parse(MulticastTree.decodeWholeOptions(stack));
        MulticastTree tree = MulticastTree.fromOptions(parsed.drivers().get(1).options());
        assertThat(tree.urls()).containsExactly("ftp://h2:2811/data/x.h5?", "ftp://h3:2811/data/x.h5?");
        assertThat(tree.castCount()).isEqualTo(MulticastTree.DEFAULT_CAST_COUNT);
        // Ferry's own form is left as it is
        String own = new MulticastTree(List.of("ftp://a/"), 2, 1).diskStack();
        assertThat(MulticastTree.decodeWholeOptions(own)).isEqualTo(own);
    }

    @Test
    void aDestinationsPathIsItsUrlsPathOrTheSameAsHere() {
        String here = "/data/run1/x.h5";
        assertThat(MulticastTree.destinationPath(org.ferry.mover.client.GridFtpUrl.parse("ftp://h/"), here))
                .isEqualTo(here);
        assertThat(MulticastTree.destinationPath(org.ferry.mover.client.GridFtpUrl.parse("ftp://h/in/"), here))
                .isEqualTo("/in/x.h5");
        assertThat(MulticastTree.destinationPath(org.ferry.mover.client.GridFtpUrl.parse("ftp://h/y.h5?"), here))
                .isEqualTo("/y.h5");
    }
}
