package org.ferry.api.domain;

import java.util.Locale;

/**
 * When an existing destination file is replaced (service-semantics b.3). A task without a sync
 * level always copies.
 */
public enum SyncLevel {
    /** 0: copy when the destination file is absent. */
    EXISTS,
    /** 1: copy when the sizes differ. */
    SIZE,
    /** 2: copy when the source is newer than the destination. */
    MTIME,
    /** 3: copy when the checksums differ. */
    CHECKSUM;

    /** @return the API integer 0..3 */
    public int level() {
        return ordinal();
    }

    /**
     * @param level 0..3
     * @return the sync level
     * @throws IllegalArgumentException outside 0..3
     */
    public static SyncLevel ofLevel(int level) {
        if (level < 0 || level > 3) {
            throw new IllegalArgumentException("sync_level must be 0-3, was " + level);
        }
        return values()[level];
    }

    /**
     * A sync level as a client writes it: its integer or its name.
     *
     * @param value {@code 0}..{@code 3}, or a name as {@link #ofName} takes it; surrounding blanks
     *     are ignored
     * @return the sync level
     * @throws IllegalArgumentException for another integer or name
     */
    public static SyncLevel parse(String value) {
        String v = value.trim();
        return v.matches("-?\\d+") ? ofLevel(Integer.parseInt(v)) : ofName(v);
    }

    /**
     * @param name {@code exists}, {@code size}, {@code mtime} or {@code checksum} (any case)
     * @return the sync level
     * @throws IllegalArgumentException for another name
     */
    public static SyncLevel ofName(String name) {
        try {
            return valueOf(name.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown sync_level '" + name + "'", e);
        }
    }
}
