package org.ferry.mover.protocol;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The {@code TAR} module of ERET and ESTO: a batch of small files from one directory travels as one
 * tar stream, the "on-the-fly tar" the Globus popen driver uses for lots of small files (xio-popen
 * driver paper, section 4.2), here built into the server instead of piping through /bin/tar.
 * Written in the generic module form {@code ERET|ESTO <module>="<params>" <path>}
 * (GFD.020 "ERET"/"ESTO"):
 *
 * <pre>
 *   ERET TAR="name/name/..." &lt;directory&gt;   send these regular files of the directory as a tar stream
 *   ESTO TAR="" &lt;directory&gt;                unpack the tar stream's files into the directory
 * </pre>
 *
 * <p>Each name is one file of the directory, URL-encoded ({@link URLEncoder}, UTF-8: the encoded
 * form holds no {@code /}, {@code "}, space or control character), joined with {@code /}. A server
 * that offers the module lists {@value #FEATURE} in FEAT (RFC 2389).
 */
public final class TarModule {

    /** The FEAT line of a server that offers ERET/ESTO TAR. */
    public static final String FEATURE = "TARSTREAM";
    /** The module name, as it follows ERET or ESTO. */
    public static final String NAME = "TAR";

    /**
     * A parsed module argument.
     *
     * @param names the files named in the parameters (ESTO: empty)
     * @param path the directory argument after the parameters
     */
    public record Argument(List<String> names, String path) {}

    private TarModule() {}

    /**
     * @param argument the text after ERET or ESTO
     * @return true if it selects this module ({@code TAR=...}, any case)
     */
    public static boolean selects(String argument) {
        String head = argument.stripLeading();
        return head.length() > NAME.length()
                && head.substring(0, NAME.length()).toUpperCase(Locale.ROOT).equals(NAME)
                && head.charAt(NAME.length()) == '=';
    }

    /**
     * Parses {@code TAR="<params>" <path>}.
     *
     * @param argument the text after ERET or ESTO
     * @return the names and the path
     * @throws IllegalArgumentException naming what is wrong: no quoted parameters, no path, an
     *     empty, {@code .}, {@code ..} or slash-holding name, or bad URL encoding
     */
    public static Argument parse(String argument) {
        String rest = argument.stripLeading().substring(NAME.length() + 1);
        if (!rest.startsWith("\"")) {
            throw new IllegalArgumentException("TAR parameters must be quoted: TAR=\"...\"");
        }
        int close = rest.indexOf('"', 1);
        if (close < 0) {
            throw new IllegalArgumentException("TAR parameters lack the closing quote");
        }
        String params = rest.substring(1, close);
        String path = rest.substring(close + 1).strip();
        if (path.isEmpty()) {
            throw new IllegalArgumentException("TAR needs a directory after the parameters");
        }
        List<String> names = new ArrayList<>();
        if (!params.isEmpty()) {
            for (String encoded : params.split("/", -1)) {
                names.add(checkName(URLDecoder.decode(encoded, StandardCharsets.UTF_8)));
            }
        }
        return new Argument(List.copyOf(names), path);
    }

    /**
     * @param names file names (no directory part)
     * @param directory the directory holding them
     * @return {@code TAR="..." directory}, the argument of ERET
     * @throws IllegalArgumentException on a name that cannot be a plain file name
     */
    public static String retrieveArgument(List<String> names, String directory) {
        StringBuilder params = new StringBuilder();
        for (String name : names) {
            if (params.length() > 0) {
                params.append('/');
            }
            params.append(encode(checkName(name)));
        }
        return NAME + "=\"" + params + "\" " + directory;
    }

    /**
     * @param directory where the files go
     * @return {@code TAR="" directory}, the argument of ESTO
     */
    public static String storeArgument(String directory) {
        return NAME + "=\"\" " + directory;
    }

    /**
     * @param name a file name
     * @return the name as it appears in the parameters (URL-encoded, UTF-8)
     */
    public static String encode(String name) {
        return URLEncoder.encode(name, StandardCharsets.UTF_8);
    }

    /**
     * @param name a file name from the parameters or an archive entry
     * @return {@code name} if it is a plain file name: not empty, not {@code .} or {@code ..}, no
     *     {@code /} and no NUL
     * @throws IllegalArgumentException otherwise
     */
    public static String checkName(String name) {
        if (name.isEmpty()
                || name.equals(".")
                || name.equals("..")
                || name.indexOf('/') >= 0
                || name.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("not a plain file name: \"" + name + "\"");
        }
        return name;
    }

    /**
     * @param sizeBytes a file's size in bytes
     * @return the bytes its entry takes in a ustar archive: a 512-byte header plus the content
     *     padded to 512-byte records (POSIX.1-2001 ustar; no pax header, which plain names and
     *     whole-second times never need)
     */
    public static long entryBytes(long sizeBytes) {
        return 512 + ((sizeBytes + 511) & ~511L);
    }
}
