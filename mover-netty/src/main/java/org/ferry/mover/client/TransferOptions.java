package org.ferry.mover.client;

/**
 * How one file moves over the data channels.
 *
 * @param mode {@link Mode#STREAM} (MODE S) or {@link Mode#EXTENDED_BLOCK} (MODE E, GFD.020)
 * @param parallelism number of parallel TCP data connections in MODE E (1..64); ignored in stream mode
 */
public record TransferOptions(Mode mode, int parallelism) {

    /** Transmission modes (RFC 959 section 3.4, GFD.020 "Extended Block Mode"). */
    public enum Mode {
        /** MODE S: one connection, closed at end of file. */
        STREAM,
        /** MODE E: blocks with offsets over N parallel connections. */
        EXTENDED_BLOCK
    }

    /** Stream mode. */
    public static final TransferOptions STREAM = new TransferOptions(Mode.STREAM, 1);

    /** @throws IllegalArgumentException if parallelism is outside 1..64 */
    public TransferOptions {
        if (mode == null) {
            throw new IllegalArgumentException("mode must not be null");
        }
        if (parallelism < 1 || parallelism > 64) {
            throw new IllegalArgumentException("parallelism must be 1..64, was " + parallelism);
        }
    }

    /** @return MODE E with {@code n} parallel streams */
    public static TransferOptions extendedBlock(int n) {
        return new TransferOptions(Mode.EXTENDED_BLOCK, n);
    }
}
