package org.ferry.mover.storage;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.ferry.mover.protocol.FileInfo;

/**
 * Several directories served side by side, each read-only or read-write: what a personal endpoint
 * (Ferry Connect, Globus Connect's "accessible folders") shares. The virtual root {@code /} is a
 * read-only directory listing one entry per mount, by the mount's name; {@code /NAME/...} is
 * {@code ...} inside that mount's directory, served by a {@link PosixStorage} with all of its rules
 * (nothing outside the directory is read, written or listed; links leading out are refused). A
 * read-only mount refuses every change (PERMISSION_DENIED): writes, new directories, deletes,
 * renames, times and modes. The root and the mount points themselves cannot be changed, and a rename
 * cannot cross mounts.
 */
public final class MountedStorage implements StorageInterface {

    /**
     * One shared directory.
     *
     * @param name its name under {@code /}: no {@code /}, not {@code .} or {@code ..}, not empty
     * @param directory the real directory
     * @param readOnly true to refuse every change under it
     */
    public record Mount(String name, Path directory, boolean readOnly) {
        /** @throws IllegalArgumentException for a name that is not one path component */
        public Mount {
            Objects.requireNonNull(directory, "directory");
            if (name == null
                    || name.isEmpty()
                    || name.contains("/")
                    || name.equals(".")
                    || name.equals("..")
                    || name.indexOf('\0') >= 0) {
                throw new IllegalArgumentException("a shared directory's name must be one path component: " + name);
            }
        }
    }

    private final Map<String, Mount> mounts;
    private final Map<String, StorageInterface> storages;
    private final Instant created = Instant.now();

    /**
     * @param mounts the shared directories, at least one, names distinct
     * @throws IOException if a directory does not exist or is not a directory
     * @throws IllegalArgumentException if there is none or two share a name
     */
    public MountedStorage(List<Mount> mounts) throws IOException {
        if (mounts.isEmpty()) {
            throw new IllegalArgumentException("no shared directory");
        }
        Map<String, Mount> byName = new LinkedHashMap<>();
        Map<String, StorageInterface> storageByName = new LinkedHashMap<>();
        for (Mount mount : mounts) {
            if (byName.put(mount.name(), mount) != null) {
                throw new IllegalArgumentException("two shared directories are named " + mount.name());
            }
            storageByName.put(mount.name(), new PosixStorage(mount.directory()));
        }
        this.mounts = byName;
        this.storages = storageByName;
    }

    private MountedStorage(MountedStorage base, Map<String, StorageInterface> storages) {
        this.mounts = base.mounts;
        this.storages = storages;
    }

    /** @return the shared directories, in the order given */
    public List<Mount> mounts() {
        return List.copyOf(mounts.values());
    }

    /** Where a virtual path lands: a mount and the path inside it, or the virtual root (mount null). */
    private record Target(Mount mount, StorageInterface storage, String inner) {
        boolean isRoot() {
            return mount == null;
        }

        boolean isMountPoint() {
            return mount != null && inner.equals("/");
        }
    }

    private Target target(String virtualPath) throws StorageException {
        if (virtualPath.equals("/")) {
            return new Target(null, null, "/");
        }
        int slash = virtualPath.indexOf('/', 1);
        String name = slash < 0 ? virtualPath.substring(1) : virtualPath.substring(1, slash);
        Mount mount = mounts.get(name);
        if (mount == null) {
            throw new StorageException(StorageException.Reason.NOT_FOUND, virtualPath + ": No such file or directory.");
        }
        return new Target(mount, storages.get(name), slash < 0 ? "/" : virtualPath.substring(slash));
    }

    /** A target that may be changed: inside a read-write mount, below its mount point. */
    private Target writable(String virtualPath) throws StorageException {
        if (VirtualPaths.parent(virtualPath).equals("/")
                && !virtualPath.equals("/")
                && !mounts.containsKey(virtualPath.substring(1))) {
            throw new StorageException(
                    StorageException.Reason.PERMISSION_DENIED,
                    virtualPath + ": Permission denied (only the shared directories can be written).");
        }
        Target target = target(virtualPath);
        if (target.isRoot() || target.isMountPoint()) {
            throw new StorageException(
                    StorageException.Reason.PERMISSION_DENIED,
                    virtualPath + ": Permission denied (a shared directory itself cannot be changed).");
        }
        if (target.mount().readOnly()) {
            throw readOnly(virtualPath);
        }
        return target;
    }

    private static StorageException readOnly(String virtualPath) {
        return new StorageException(
                StorageException.Reason.PERMISSION_DENIED, virtualPath + ": Permission denied (shared read-only).");
    }

    private FileStat rootStat() {
        return new FileStat("/", FileInfo.Type.DIRECTORY, 0, created, 0555, true, false, "-", "-");
    }

    /** A mount point's stat under its mount name, not writable if the mount is read-only. */
    private static FileStat named(FileStat stat, Mount mount) {
        return new FileStat(
                mount.name(),
                stat.type(),
                stat.sizeBytes(),
                stat.modified(),
                stat.unixMode(),
                stat.readable(),
                stat.writable() && !mount.readOnly(),
                stat.owner(),
                stat.group());
    }

    private static FileStat shown(FileStat stat, Mount mount) {
        return mount.readOnly() && stat.writable()
                ? new FileStat(
                        stat.name(),
                        stat.type(),
                        stat.sizeBytes(),
                        stat.modified(),
                        stat.unixMode(),
                        stat.readable(),
                        false,
                        stat.owner(),
                        stat.group())
                : stat;
    }

    @Override
    public FileStat stat(String virtualPath) throws StorageException {
        Target target = target(virtualPath);
        if (target.isRoot()) {
            return rootStat();
        }
        FileStat stat = target.storage().stat(target.inner());
        return target.isMountPoint() ? named(stat, target.mount()) : shown(stat, target.mount());
    }

    @Override
    public Optional<FileIdentity> identity(String virtualPath) throws StorageException {
        Target target = target(virtualPath);
        return target.isRoot() ? Optional.empty() : target.storage().identity(target.inner());
    }

    @Override
    public List<FileStat> list(String virtualPath) throws StorageException {
        Target target = target(virtualPath);
        if (target.isRoot()) {
            List<FileStat> entries = new ArrayList<>();
            for (Mount mount : mounts.values()) {
                try {
                    entries.add(named(storages.get(mount.name()).stat("/"), mount));
                } catch (StorageException e) {
                    // a shared directory gone since start: left out, as a vanished entry would be
                }
            }
            entries.sort(Comparator.comparing(FileStat::name));
            return entries;
        }
        List<FileStat> entries = target.storage().list(target.inner());
        if (!target.mount().readOnly()) {
            return entries;
        }
        List<FileStat> shown = new ArrayList<>(entries.size());
        for (FileStat entry : entries) {
            shown.add(shown(entry, target.mount()));
        }
        return shown;
    }

    @Override
    public FileChannel openForRead(String virtualPath) throws StorageException {
        Target target = target(virtualPath);
        if (target.isRoot()) {
            throw new StorageException(StorageException.Reason.IS_A_DIRECTORY, virtualPath + ": Is a directory.");
        }
        return target.storage().openForRead(target.inner());
    }

    @Override
    public OpenFile openForReading(String virtualPath) throws StorageException {
        Target target = target(virtualPath);
        if (target.isRoot()) {
            throw new StorageException(StorageException.Reason.IS_A_DIRECTORY, virtualPath + ": Is a directory.");
        }
        return target.storage().openForReading(target.inner());
    }

    @Override
    public FileChannel openForWrite(String virtualPath, long truncateTo) throws StorageException {
        Target target = writable(virtualPath);
        return target.storage().openForWrite(target.inner(), truncateTo);
    }

    @Override
    public void createDirectory(String virtualPath) throws StorageException {
        Target target = writable(virtualPath);
        target.storage().createDirectory(target.inner());
    }

    @Override
    public void removeDirectory(String virtualPath) throws StorageException {
        Target target = writable(virtualPath);
        target.storage().removeDirectory(target.inner());
    }

    @Override
    public void delete(String virtualPath) throws StorageException {
        Target target = writable(virtualPath);
        target.storage().delete(target.inner());
    }

    @Override
    public void rename(String fromVirtualPath, String toVirtualPath) throws StorageException {
        Target from = writable(fromVirtualPath);
        Target to = writable(toVirtualPath);
        if (from.mount() != to.mount()) {
            throw new StorageException(
                    StorageException.Reason.PERMISSION_DENIED,
                    toVirtualPath + ": Permission denied (a rename cannot leave its shared directory).");
        }
        from.storage().rename(from.inner(), to.inner());
    }

    @Override
    public long usableSpaceBytes(String virtualPath) throws StorageException {
        Target target = target(virtualPath);
        if (target.isRoot()) {
            // ALLO before a STOR whose mount is not named yet (a client at "/"): the most any
            // writable directory has; the STOR checks its own mount again (Allocation)
            long most = 0;
            for (Mount mount : mounts.values()) {
                if (!mount.readOnly()) {
                    most = Math.max(most, storages.get(mount.name()).usableSpaceBytes("/"));
                }
            }
            return most;
        }
        return target.mount().readOnly() ? 0 : target.storage().usableSpaceBytes(target.inner());
    }

    @Override
    public void setModified(String virtualPath, Instant modified) throws StorageException {
        Target target = writable(virtualPath);
        target.storage().setModified(target.inner(), modified);
    }

    @Override
    public void setPermissions(String virtualPath, int mode) throws StorageException {
        Target target = writable(virtualPath);
        target.storage().setPermissions(target.inner(), mode);
    }

    /** Each mount's own session view (directories kept open across a batch), behind the same rules. */
    @Override
    public StorageInterface forSession() {
        Map<String, StorageInterface> views = new LinkedHashMap<>();
        storages.forEach((name, storage) -> views.put(name, storage.forSession()));
        return new MountedStorage(this, views);
    }

    @Override
    public void endBatch() {
        storages.values().forEach(StorageInterface::endBatch);
    }

    @Override
    public void batchPaused() {
        storages.values().forEach(StorageInterface::batchPaused);
    }

    @Override
    public void release() {
        storages.values().forEach(StorageInterface::release);
    }

    @Override
    public StorageDirectory directory(String virtualPath) throws StorageException {
        Target target = target(virtualPath);
        if (target.isRoot()) {
            return StorageInterface.super.directory(virtualPath); // no plain files in the virtual root
        }
        StorageDirectory directory = target.storage().directory(target.inner());
        if (!target.mount().readOnly()) {
            return directory;
        }
        return new StorageDirectory() {
            @Override
            public long size(String name) throws StorageException {
                return directory.size(name);
            }

            @Override
            public FileChannel openForRead(String name) throws StorageException {
                return directory.openForRead(name);
            }

            @Override
            public FileChannel create(String name) throws StorageException {
                throw readOnly(VirtualPaths.resolve(virtualPath, name));
            }

            @Override
            public void close() throws StorageException {
                directory.close();
            }
        };
    }

    /**
     * Checks what an agent is about to share: each directory exists, is a directory and readable,
     * and a read-write one is writable, by this process.
     *
     * @param mount a shared directory
     * @return null if it can be shared as asked, else why not (one line naming the directory)
     */
    public static String problem(Mount mount) {
        Path dir = mount.directory();
        if (!Files.exists(dir)) {
            return "shared directory " + dir + " does not exist";
        }
        if (!Files.isDirectory(dir)) {
            return "shared directory " + dir + " is not a directory";
        }
        if (!Files.isReadable(dir) || !Files.isExecutable(dir)) {
            return "shared directory " + dir + " is not readable by this user";
        }
        if (!mount.readOnly() && !Files.isWritable(dir)) {
            return "shared directory " + dir + " is not writable by this user (share it read-only, or fix its mode)";
        }
        return null;
    }
}
