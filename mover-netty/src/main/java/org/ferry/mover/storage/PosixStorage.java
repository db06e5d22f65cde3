package org.ferry.mover.storage;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.ferry.mover.protocol.FileInfo;

/**
 * A {@link StorageInterface} over a POSIX file system directory. Every path goes through a
 * {@link RootedPathResolver}, so nothing outside the root is read, written or listed; file
 * contents are opened with {@link RootedPathResolver#open}, which follows no link, so a symbolic
 * link swapped in between the check and the open does not lead out of the root either.
 */
public final class PosixStorage implements StorageInterface {

    private final RootedPathResolver resolver;
    private final Consumer<String> beforeOpen;
    /** Owner and group names by uid and gid: a listing would otherwise read the user database per entry. */
    private final Map<Integer, String> userNames = new ConcurrentHashMap<>();

    private final Map<Integer, String> groupNames = new ConcurrentHashMap<>();
    /** The perm facts' read and write bits, from the stat a listing makes anyway. */
    private final ModeBitsAccess access = ModeBitsAccess.ofThisProcess();

    private static final String UNIX_ATTRIBUTES =
            "unix:mode,uid,gid,size,lastModifiedTime"; // the type is in the mode: each name costs a map entry
    /** The file systems' stores by device: ALLO and the store after it ask for the space per file. */
    private final DeviceStores stores = new DeviceStores();

    /**
     * @param root the directory to serve
     * @throws IOException if it does not exist or is not a directory
     */
    public PosixStorage(Path root) throws IOException {
        this(root, virtualPath -> {});
    }

    /**
     * For tests of races with the file system.
     *
     * @param root the directory to serve
     * @param beforeOpen runs with the virtual path between the root check and the open of a file's
     *     contents (where a symbolic link swapped in would do harm)
     * @throws IOException if the root does not exist or is not a directory
     */
    PosixStorage(Path root, Consumer<String> beforeOpen) throws IOException {
        this.resolver = new RootedPathResolver(root);
        this.beforeOpen = beforeOpen;
    }

    @Override
    public FileStat stat(String virtualPath) throws StorageException {
        Path real = resolver.resolve(virtualPath);
        try {
            return statOf(VirtualPaths.name(virtualPath), real, true);
        } catch (IOException e) {
            throw StorageException.from(e, virtualPath);
        }
    }

    /** One stat for a file's identity; {@code unix:ctime} is st_ctim, which no user can set. */
    private static final String IDENTITY_ATTRIBUTES = "unix:mode,dev,ino,size,lastModifiedTime,ctime";

    @Override
    public java.util.Optional<FileIdentity> identity(String virtualPath) throws StorageException {
        Path real = resolver.resolve(virtualPath);
        Map<String, Object> unix;
        try {
            unix = Files.readAttributes(real, IDENTITY_ATTRIBUTES);
        } catch (UnsupportedOperationException | IllegalArgumentException e) {
            return java.util.Optional.empty(); // no unix view: no inodes to tell files apart
        } catch (IOException e) {
            throw StorageException.from(e, virtualPath);
        }
        if (typeOfMode((Integer) unix.get("mode")) != FileInfo.Type.FILE) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(new FileIdentity(
                (Long) unix.get("dev"),
                (Long) unix.get("ino"),
                (Long) unix.get("size"),
                nanos((java.nio.file.attribute.FileTime) unix.get("lastModifiedTime")),
                nanos((java.nio.file.attribute.FileTime) unix.get("ctime"))));
    }

    private static long nanos(java.nio.file.attribute.FileTime time) {
        java.time.Instant instant = time.toInstant();
        return instant.getEpochSecond() * 1_000_000_000L + instant.getNano();
    }

    @Override
    public List<FileStat> list(String virtualPath) throws StorageException {
        Path dir = resolver.resolve(virtualPath);
        if (!Files.isDirectory(dir)) {
            throw new StorageException(
                    Files.exists(dir) ? StorageException.Reason.NOT_A_DIRECTORY : StorageException.Reason.NOT_FOUND,
                    virtualPath + ": " + (Files.exists(dir) ? "Not a directory." : "No such file or directory."));
        }
        List<FileStat> entries = new ArrayList<>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir)) {
            for (Path child : stream) {
                String name = child.getFileName().toString();
                try {
                    // one lstat per entry; a link is stat'ed again through it if it stays inside the root
                    FileStat entry = statOf(name, child, false);
                    if (entry.type() == FileInfo.Type.SYMLINK && followable(child)) {
                        entry = statOf(name, child, true);
                    }
                    entries.add(entry);
                } catch (IOException e) {
                    // vanished or unreadable entry: leave it out of the listing
                }
            }
        } catch (IOException e) {
            throw StorageException.from(e, virtualPath);
        }
        entries.sort(Comparator.comparing(FileStat::name));
        return entries;
    }

    @Override
    public FileChannel openForRead(String virtualPath) throws StorageException {
        return openForRead(virtualPath, true);
    }

    /**
     * The full way to a file's contents: {@link RootedPathResolver#resolve} (links inside the root
     * followed), then {@link RootedPathResolver#open} (no link followed between the check and the open).
     *
     * @param hook whether the test hook runs before the open (the session view ran it already)
     */
    FileChannel openForRead(String virtualPath, boolean hook) throws StorageException {
        Path real = resolver.resolve(virtualPath);
        if (Files.isDirectory(real)) {
            throw new StorageException(StorageException.Reason.IS_A_DIRECTORY, virtualPath + ": Is a directory.");
        }
        if (hook) {
            beforeOpen.accept(virtualPath);
        }
        return resolver.open(real, virtualPath, Set.of(StandardOpenOption.READ));
    }

    @Override
    public FileChannel openForWrite(String virtualPath, long truncateTo) throws StorageException {
        return openForWrite(virtualPath, truncateTo, true);
    }

    /** The full way to write a file, as {@link #openForRead(String, boolean)} reads one. */
    FileChannel openForWrite(String virtualPath, long truncateTo, boolean hook) throws StorageException {
        if (virtualPath.equals("/")) {
            throw new StorageException(StorageException.Reason.IS_A_DIRECTORY, "/: Is a directory.");
        }
        Path real = resolver.resolve(virtualPath);
        if (Files.isDirectory(real)) {
            throw new StorageException(StorageException.Reason.IS_A_DIRECTORY, virtualPath + ": Is a directory.");
        }
        if (hook) {
            beforeOpen.accept(virtualPath);
        }
        FileChannel channel =
                resolver.open(real, virtualPath, Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE));
        return truncated(channel, truncateTo, virtualPath);
    }

    /** Cuts an open file to {@code truncateTo} if it is longer; closes it on failure. */
    static FileChannel truncated(FileChannel channel, long truncateTo, String virtualPath) throws StorageException {
        try {
            if (truncateTo != Long.MAX_VALUE && channel.size() > truncateTo) {
                channel.truncate(truncateTo);
            }
            return channel;
        } catch (IOException e) {
            try {
                channel.close();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw StorageException.from(e, virtualPath);
        }
    }

    /**
     * A session's view that keeps the directory of its last file open: the files of a batch in one
     * directory are opened relative to it, without a path walk each ({@link PosixSessionStorage}).
     */
    @Override
    public StorageInterface forSession() {
        return forSession(System::nanoTime);
    }

    /** As {@link #forSession()}, with the view's clock ({@link System#nanoTime} units) given; tests move it by hand. */
    StorageInterface forSession(java.util.function.LongSupplier nanoClock) {
        return new PosixSessionStorage(this, resolver, beforeOpen, nanoClock);
    }

    @Override
    public StorageDirectory directory(String virtualPath) throws StorageException {
        Path real = resolver.resolve(virtualPath);
        if (!Files.isDirectory(real)) {
            throw new StorageException(
                    Files.exists(real) ? StorageException.Reason.NOT_A_DIRECTORY : StorageException.Reason.NOT_FOUND,
                    virtualPath + ": " + (Files.exists(real) ? "Not a directory." : "No such file or directory."));
        }
        StorageDirectory linked = StorageInterface.super.directory(virtualPath);
        java.nio.file.SecureDirectoryStream<Path> open = resolver.openDirectory(real, virtualPath);
        return open == null ? linked : new PosixDirectory(open, virtualPath, linked);
    }

    @Override
    public long usableSpaceBytes(String virtualPath) throws StorageException {
        Path existing = resolver.resolve(virtualPath);
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent(); // a new file: the file system of its directory
        }
        try {
            return stores.usableSpace(existing == null ? resolver.realRoot() : existing);
        } catch (IOException e) {
            throw StorageException.from(e, virtualPath);
        }
    }

    @Override
    public void createDirectory(String virtualPath) throws StorageException {
        Path real = resolver.resolve(virtualPath);
        try {
            Files.createDirectory(real);
        } catch (IOException e) {
            throw StorageException.from(e, virtualPath);
        }
    }

    @Override
    public void removeDirectory(String virtualPath) throws StorageException {
        if (virtualPath.equals("/")) {
            throw new StorageException(StorageException.Reason.PERMISSION_DENIED, "/: Permission denied.");
        }
        Path lexical = lexicalInside(virtualPath);
        if (Files.isSymbolicLink(lexical) || !Files.isDirectory(lexical, LinkOption.NOFOLLOW_LINKS)) {
            throw new StorageException(
                    Files.exists(lexical, LinkOption.NOFOLLOW_LINKS)
                            ? StorageException.Reason.NOT_A_DIRECTORY
                            : StorageException.Reason.NOT_FOUND,
                    virtualPath
                            + (Files.exists(lexical, LinkOption.NOFOLLOW_LINKS)
                                    ? ": Not a directory."
                                    : ": No such file or directory."));
        }
        try {
            Files.delete(lexical);
        } catch (IOException e) {
            throw StorageException.from(e, virtualPath);
        }
    }

    @Override
    public void delete(String virtualPath) throws StorageException {
        Path lexical = lexicalInside(virtualPath);
        if (Files.isDirectory(lexical, LinkOption.NOFOLLOW_LINKS)) {
            throw new StorageException(StorageException.Reason.IS_A_DIRECTORY, virtualPath + ": Is a directory.");
        }
        try {
            Files.delete(lexical);
        } catch (IOException e) {
            throw StorageException.from(e, virtualPath);
        }
    }

    @Override
    public void rename(String fromVirtualPath, String toVirtualPath) throws StorageException {
        if (fromVirtualPath.equals("/")) {
            throw new StorageException(StorageException.Reason.PERMISSION_DENIED, "/: Permission denied.");
        }
        Path from = lexicalInside(fromVirtualPath);
        if (!Files.exists(from, LinkOption.NOFOLLOW_LINKS)) {
            throw new StorageException(
                    StorageException.Reason.NOT_FOUND, fromVirtualPath + ": No such file or directory.");
        }
        Path to = resolver.resolve(toVirtualPath);
        if (to.startsWith(from) && !to.equals(from)) {
            throw new StorageException(
                    StorageException.Reason.INVALID_PATH, toVirtualPath + ": Cannot move a directory into itself.");
        }
        try {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw StorageException.from(e, fromVirtualPath);
        }
    }

    /**
     * The path of the entry itself (last component not followed), for operations on links
     * themselves (delete, rename): the parent must resolve inside the root.
     */
    @Override
    public void setModified(String virtualPath, java.time.Instant modified) throws StorageException {
        Path real = resolver.resolve(virtualPath);
        try {
            Files.setLastModifiedTime(real, java.nio.file.attribute.FileTime.from(modified));
        } catch (IOException e) {
            throw StorageException.from(e, virtualPath);
        }
    }

    @Override
    public void setPermissions(String virtualPath, int mode) throws StorageException {
        Path real = resolver.resolve(virtualPath);
        java.util.Set<java.nio.file.attribute.PosixFilePermission> bits =
                java.util.EnumSet.noneOf(java.nio.file.attribute.PosixFilePermission.class);
        java.nio.file.attribute.PosixFilePermission[] order = java.nio.file.attribute.PosixFilePermission.values();
        for (int i = 0; i < 9; i++) { // OWNER_READ (0400) .. OTHERS_EXECUTE (0001), in that order
            if ((mode & (0400 >> i)) != 0) {
                bits.add(order[i]);
            }
        }
        try {
            Files.setPosixFilePermissions(real, bits);
        } catch (IOException e) {
            throw StorageException.from(e, virtualPath);
        }
    }

    private Path lexicalInside(String virtualPath) throws StorageException {
        if (virtualPath.equals("/")) {
            return resolver.realRoot();
        }
        Path parent = resolver.resolve(VirtualPaths.parent(virtualPath));
        return parent.resolve(VirtualPaths.name(virtualPath));
    }

    private boolean followable(Path child) {
        if (!Files.isSymbolicLink(child)) {
            return true;
        }
        try {
            return resolver.isInside(child.toRealPath());
        } catch (IOException e) {
            return false;
        }
    }

    private FileStat statOf(String name, Path path, boolean follow) throws IOException {
        LinkOption[] options = follow ? new LinkOption[0] : new LinkOption[] {LinkOption.NOFOLLOW_LINKS};
        FileInfo.Type type;
        long size;
        java.time.Instant modified;
        int mode = -1;
        String owner = "-";
        String group = "-";
        boolean readable;
        boolean writable;
        try {
            // one stat through the unix view, which gives uid and gid as numbers: the JDK's owner()
            // would look the name up in the user database (getpwuid) for every entry of a listing
            Map<String, Object> unix = Files.readAttributes(path, UNIX_ATTRIBUTES, options);
            int bits = (Integer) unix.get("mode");
            type = typeOfMode(bits);
            size = (Long) unix.get("size");
            modified = ((java.nio.file.attribute.FileTime) unix.get("lastModifiedTime")).toInstant();
            mode = bits & 0777; // the permission bits, as listings show them
            int uid = (Integer) unix.get("uid");
            int gid = (Integer) unix.get("gid");
            owner = userNames.computeIfAbsent(uid, id -> principalName(path, options, true));
            group = groupNames.computeIfAbsent(gid, id -> principalName(path, options, false));
            boolean claims = claimsAccess(follow, type);
            long owningUid = Integer.toUnsignedLong(uid);
            long owningGid = Integer.toUnsignedLong(gid);
            readable = claims && access.mayRead(bits, owningUid, owningGid);
            writable = claims && access.mayWrite(bits, owningUid, owningGid);
        } catch (UnsupportedOperationException | IllegalArgumentException e) {
            BasicFileAttributes basic = Files.readAttributes(path, BasicFileAttributes.class, options);
            type = type(basic.isDirectory(), basic.isRegularFile(), basic.isSymbolicLink());
            size = basic.size();
            modified = basic.lastModifiedTime().toInstant();
            boolean claims = claimsAccess(follow, type); // no unix view: access(2)
            readable = claims && Files.isReadable(path);
            writable = claims && Files.isWritable(path);
        }
        return new FileStat(name, type, size, modified, mode, readable, writable, owner, group);
    }

    /**
     * A link not followed claims neither read nor write: what it points to was not stat'ed, and
     * access(2) would follow it.
     *
     * @return whether an entry of this type, stat'ed so, may claim read or write
     */
    private static boolean claimsAccess(boolean follow, FileInfo.Type type) {
        return follow || type != FileInfo.Type.SYMLINK;
    }

    /** @return the type in st_mode's S_IFMT bits (POSIX sys/stat.h: S_IFDIR, S_IFREG, S_IFLNK) */
    private static FileInfo.Type typeOfMode(int mode) {
        return switch (mode & 0170000) {
            case 0040000 -> FileInfo.Type.DIRECTORY;
            case 0100000 -> FileInfo.Type.FILE;
            case 0120000 -> FileInfo.Type.SYMLINK;
            default -> FileInfo.Type.OTHER;
        };
    }

    private static FileInfo.Type type(boolean directory, boolean regularFile, boolean symbolicLink) {
        return directory
                ? FileInfo.Type.DIRECTORY
                : regularFile ? FileInfo.Type.FILE : symbolicLink ? FileInfo.Type.SYMLINK : FileInfo.Type.OTHER;
    }

    /** @return the name of the file's owner (or group), "-" if it cannot be read */
    private static String principalName(Path path, LinkOption[] options, boolean user) {
        try {
            PosixFileAttributes posix = Files.readAttributes(path, PosixFileAttributes.class, options);
            return user ? posix.owner().getName() : posix.group().getName();
        } catch (IOException | UnsupportedOperationException e) {
            return "-";
        }
    }
}
