package org.ferry.mover.storage;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@link FileStore} of a path, found once per device. {@link Files#getFileStore} reads the whole
 * mount table ({@code /proc/mounts}, parsed line by line) on every call; {@code globus-url-copy}
 * sends {@code ALLO} before every upload and the store checks the space again (RFC 959 section
 * 4.1.3), so with the files on another file system than the root (a root of {@code /}, the data on
 * a mount below it) that read came twice per file: about 5 % of ferry-gridftp's CPU in 5,000 x
 * 50 KiB uploads with {@code -cc 4} across hosts (perf, 2026-11-29). Here a path costs one stat (its
 * device number); the store is looked up at the top directory of that device above the path (its
 * mount point, as far as the path shows) the first time, and again when that directory has moved to
 * another device since (unmounted, or mounted over). Thread-safe.
 */
final class DeviceStores {

    /** More devices than a server writes to: the map starts over rather than grow without bound. */
    private static final int MAX_DEVICES = 64;

    private record Entry(Path top, FileStore store) {}

    private final Map<Object, Entry> byDevice = new ConcurrentHashMap<>();

    /**
     * @param existing an existing path (a file or a directory), absolute and real
     * @return the usable bytes of its file system ({@link FileStore#getUsableSpace})
     * @throws IOException if the path or its file system cannot be examined (NoSuchFileException
     *     when it does not exist)
     */
    long usableSpace(Path existing) throws IOException {
        return store(existing).getUsableSpace();
    }

    /**
     * @param existing an existing path, absolute and real
     * @return its file system's store: the one {@link Files#getFileStore} gives, the same object
     *     for every path of one device while that device stays mounted where it was
     * @throws IOException as {@link Files#getFileStore} throws it
     */
    FileStore store(Path existing) throws IOException {
        Object device = deviceOrNull(existing);
        if (device == null) {
            return Files.getFileStore(existing); // gone (its error), or no unix view: the JDK's lookup
        }
        Entry entry = byDevice.get(device);
        if (entry == null || !device.equals(deviceOrNull(entry.top()))) {
            Path top = top(existing, device);
            entry = new Entry(top, Files.getFileStore(top));
            if (byDevice.size() >= MAX_DEVICES) {
                byDevice.clear();
            }
            byDevice.put(device, entry);
        }
        return entry.store();
    }

    /** @return the highest directory above {@code path} (or itself) on {@code device} */
    private static Path top(Path path, Object device) {
        Path top = path;
        for (Path up = path.getParent(); up != null && device.equals(deviceOrNull(up)); up = up.getParent()) {
            top = up;
        }
        return top;
    }

    /** @return the path's device number, or null if it is gone or the file system has no unix view */
    private static Object deviceOrNull(Path path) {
        try {
            return Files.getAttribute(path, "unix:dev");
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return null;
        }
    }
}
