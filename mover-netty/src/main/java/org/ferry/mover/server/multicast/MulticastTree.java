package org.ferry.mover.server.multicast;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.ferry.mover.client.GridFtpUrl;
import org.ferry.mover.server.pi.FtpException;
import org.ferry.mover.server.popen.DriverStack;

/**
 * The servers a receiving server forwards to: the options of the {@code gridftp_multicast} driver
 * in {@code SITE SETDISKSTACK file,gridftp_multicast:urls=#URL#URL...;cc=N;P=N} (the Globus driver's
 * names: {@code urls}, {@code cc} the cast count, {@code P} the parallelism of each forward). The
 * first {@code cc} URLs are this server's children; the rest are dealt to them in runs of equal
 * length, each child forwarding its run the same way (the Globus driver's split,
 * globus_xio_gridftp_multicast_driver.c). Each URL is {@code %XX}-encoded inside the list (at
 * least {@code %} and {@code #}), and the list again inside the stack.
 *
 * @param urls every server below this one, children first, as given (with their user info: a
 *     parent passes them on to its children; {@link GridFtpUrl#toString} is the form for messages)
 * @param castCount children of this server (1..)
 * @param parallelism MODE E streams of each forward (1..64)
 */
public record MulticastTree(List<String> urls, int castCount, int parallelism) {

    /** The driver's name on the disk stack. */
    public static final String DRIVER = "gridftp_multicast";

    /**
     * The FEAT line (RFC 2389) of a server that forwards this driver ({@code ferry-gridftp
     * --multicast}), by which a client learns it may send a tree: Globus GridFTP announces none, so
     * this is Ferry's own; a client without it must not send one.
     */
    public static final String FEATURE = "SETDISKSTACK " + DRIVER;

    /** Default {@link #castCount}: a binary tree. */
    public static final int DEFAULT_CAST_COUNT = 2;

    /** Default {@link #parallelism}. */
    public static final int DEFAULT_PARALLELISM = 4;

    /** @throws IllegalArgumentException for no URL, a cast count below 1 or a parallelism outside 1..64 */
    public MulticastTree {
        urls = List.copyOf(urls);
        if (urls.isEmpty() || castCount < 1 || parallelism < 1 || parallelism > 64) {
            throw new IllegalArgumentException("a multicast tree needs a URL, cc >= 1 and 1 <= P <= 64");
        }
    }

    /**
     * One child and the servers it forwards to.
     *
     * @param url the child, as given
     * @param below its own subtree, or null for a leaf
     */
    public record Branch(String url, MulticastTree below) {

        /** @return the child's URL, parsed */
        public GridFtpUrl server() {
            return GridFtpUrl.parse(url);
        }
    }

    /** @return this server's children, each with its subtree */
    public List<Branch> branches() {
        int children = Math.min(castCount, urls.size());
        List<String> rest = urls.subList(children, urls.size());
        int run = (rest.size() + children - 1) / children;
        List<Branch> branches = new ArrayList<>();
        for (int i = 0; i < children; i++) {
            int from = Math.min(rest.size(), i * run);
            int to = Math.min(rest.size(), from + run);
            List<String> below = rest.subList(from, to);
            branches.add(
                    new Branch(urls.get(i), below.isEmpty() ? null : new MulticastTree(below, castCount, parallelism)));
        }
        return branches;
    }

    /**
     * @param options the driver's options from {@link DriverStack#parse}
     * @return the tree
     * @throws FtpException 500 naming the option that is missing or malformed
     */
    public static MulticastTree fromOptions(Map<String, String> options) throws FtpException {
        for (String key : options.keySet()) {
            if (!List.of("urls", "cc", "P").contains(key)) {
                throw refused("option '" + key + "' is not supported (urls, cc, P)");
            }
        }
        String list = options.get("urls");
        if (list == null || list.isEmpty()) {
            throw refused("urls not supplied");
        }
        List<String> urls = new ArrayList<>();
        for (String item : DriverStack.splitList(list)) {
            String url = decode(item);
            try {
                GridFtpUrl parsed = GridFtpUrl.parse(url);
                if (parsed.scheme().equals("sshftp")) {
                    throw refused("sshftp:// destinations are not supported: " + parsed);
                }
                urls.add(url);
            } catch (IllegalArgumentException e) {
                throw refused("bad URL: " + e.getMessage().replace(url, "(given)"));
            }
        }
        int cc = number(options, "cc", DEFAULT_CAST_COUNT);
        int p = number(options, "P", DEFAULT_PARALLELISM);
        try {
            return new MulticastTree(urls, cc, p);
        } catch (IllegalArgumentException e) {
            throw refused(e.getMessage());
        }
    }

    /**
     * @return the stack a parent sends its child ({@code file,gridftp_multicast:urls=...;cc=N;P=N}),
     *     which {@link DriverStack#parse} and {@link #fromOptions} read back as this tree
     */
    public String diskStack() {
        StringBuilder list = new StringBuilder();
        for (String url : urls) {
            list.append('#').append(encode(url, "%#"));
        }
        return "file," + DRIVER + ":urls=" + encode(list.toString(), "%;,= ") + ";cc=" + castCount + ";P="
                + parallelism;
    }

    /**
     * globus-url-copy {@code -mc} encodes the driver's whole option string once more ({@code
     * gridftp_multicast:%3Burls%3D%23...}, globus_url_copy.c guc_build_mc_str), where Ferry's client
     * encodes each value: an option string without any {@code =} is decoded once first.
     *
     * @param stack the argument of {@code SITE SETDISKSTACK}
     * @return the stack with the multicast driver's options in {@code key=value;...} form
     */
    public static String decodeWholeOptions(String stack) {
        StringBuilder out = new StringBuilder();
        for (String entry : stack.split(",", -1)) {
            if (out.length() > 0) {
                out.append(',');
            }
            String prefix = DRIVER + ":";
            if (entry.strip().toLowerCase(java.util.Locale.ROOT).startsWith(prefix)
                    && entry.indexOf('=') < 0
                    && entry.indexOf('%') >= 0) {
                String options = entry.strip().substring(prefix.length());
                try {
                    out.append(prefix).append(decode(options));
                    continue;
                } catch (FtpException e) {
                    // left as it is: the parser names what is wrong
                }
            }
            out.append(entry);
        }
        return out.toString();
    }

    private static int number(Map<String, String> options, String key, int fallback) throws FtpException {
        String value = options.get(key);
        if (value == null) {
            return fallback;
        }
        try {
            return Integer.parseInt(value.strip());
        } catch (NumberFormatException e) {
            throw refused(key + " is not a number: '" + value + "'");
        }
    }

    private static String encode(String text, String special) {
        StringBuilder out = new StringBuilder();
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xff);
            if (b < 0x21 || b > 0x7e || special.indexOf(c) >= 0) {
                out.append('%').append(String.format("%02X", b & 0xff));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    /**
     * Where a child stores the file: the path of its URL when that names a file, the same file name
     * in the URL's directory when it ends with {@code /} (and is not just {@code /}), else the same
     * path as here (a URL with no path).
     *
     * @param url the child's URL (a {@code ?query}, as globus-url-copy {@code -mc} adds, is ignored)
     * @param here the path on this server
     * @return the path on the child
     */
    public static String destinationPath(GridFtpUrl url, String here) {
        String path = url.path();
        if (path.equals("/") || path.isEmpty()) {
            return here;
        }
        if (path.endsWith("/")) {
            return path + here.substring(here.lastIndexOf('/') + 1);
        }
        return path;
    }

    /**
     * Decodes {@code %XX} escapes (UTF-8).
     *
     * @throws FtpException 500 on a malformed escape
     */
    static String decode(String text) throws FtpException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] != '%') {
                out.write(bytes[i]);
                continue;
            }
            if (i + 2 >= bytes.length) {
                throw refused("bad %XX escape in '" + text + "'");
            }
            try {
                out.write(Integer.parseInt(new String(bytes, i + 1, 2, StandardCharsets.US_ASCII), 16));
            } catch (NumberFormatException e) {
                throw refused("bad %XX escape in '" + text + "'");
            }
            i += 2;
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    private static FtpException refused(String why) {
        return new FtpException(500, "Setting filesystem driver stack failed: " + DRIVER + ": " + why + ".");
    }
}
