package org.ferry.scheduler.plan;

/** Joins and splits absolute GridFTP paths ({@code /} separated). */
public final class RemotePaths {

    private RemotePaths() {}

    /** @return {@code directory/name}, without doubling the slash of {@code /} */
    public static String child(String directory, String name) {
        return directory.endsWith("/") ? directory + name : directory + "/" + name;
    }

    /** @return the parent directory; {@code /} for top-level paths and for {@code /} itself */
    public static String parent(String path) {
        int slash = path.lastIndexOf('/');
        return slash <= 0 ? "/" : path.substring(0, slash);
    }
}
