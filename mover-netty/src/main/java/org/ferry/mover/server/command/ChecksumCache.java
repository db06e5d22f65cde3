package org.ferry.mover.server.command;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.ferry.mover.storage.FileIdentity;

/**
 * Checksums of whole files, each kept with the identity the file had when it was computed ({@link
 * FileIdentity}: device, inode, size, modification and change time), so that CKSM answers without
 * reading the file again while the file is unchanged. Filled by STOR with what it computed while
 * the bytes arrived ({@link InflightChecksums}) and by CKSM with what it read. A lookup whose file
 * changed since (another identity for the same device and inode), or that was replaced (another
 * inode), finds nothing, and CKSM reads the file. Keyed by device and inode rather than by path: two
 * sessions whose roots differ may name different files by one path, and a rename keeps the entry.
 * Bounded: the least recently used entry goes when {@code capacity} is reached. One per server.
 * Thread-safe.
 */
final class ChecksumCache {

    private record Key(long device, long inode) {}

    private record Entry(FileIdentity identity, Map<String, String> values) {}

    private final int capacity;
    private final LinkedHashMap<Key, Entry> entries;

    /** @param capacity the most files kept, 1 or more */
    ChecksumCache(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be >= 1: " + capacity);
        }
        this.capacity = capacity;
        this.entries = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Key, Entry> eldest) {
                return size() > ChecksumCache.this.capacity;
            }
        };
    }

    /**
     * Keeps checksums of a file's whole contents. Values for the same identity add up (MD5 from the
     * upload, SHA256 from a later CKSM); a new identity replaces the file's old values.
     *
     * @param identity the file as it was when every byte of {@code values} was read or written
     * @param values lowercase hex by canonical algorithm name; nothing is kept when empty
     */
    synchronized void put(FileIdentity identity, Map<String, String> values) {
        if (values.isEmpty()) {
            return;
        }
        Key key = new Key(identity.device(), identity.inode());
        Entry old = entries.get(key);
        Map<String, String> kept = new HashMap<>();
        if (old != null && old.identity().equals(identity)) {
            kept.putAll(old.values());
        }
        kept.putAll(values);
        entries.put(key, new Entry(identity, Map.copyOf(kept)));
    }

    /**
     * @param identity the file as it is now
     * @param algorithm a canonical algorithm name
     * @return the file's checksum if one was kept for exactly this identity, else null (an entry for
     *     an older version of the file is dropped)
     */
    synchronized String get(FileIdentity identity, String algorithm) {
        Key key = new Key(identity.device(), identity.inode());
        Entry entry = entries.get(key);
        if (entry == null) {
            return null;
        }
        if (!entry.identity().equals(identity)) {
            entries.remove(key);
            return null;
        }
        return entry.values().get(algorithm);
    }

    /** @return how many files have checksums kept */
    synchronized int size() {
        return entries.size();
    }
}
