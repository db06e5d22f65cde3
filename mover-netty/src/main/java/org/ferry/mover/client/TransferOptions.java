package org.ferry.mover.client;

import org.ferry.mover.data.security.DataChannelAuthentication;
import org.ferry.mover.data.security.ProtectionLevel;

/**
 * How one file moves over the data channels.
 *
 * @param mode {@link Mode#STREAM} (MODE S) or {@link Mode#EXTENDED_BLOCK} (MODE E, GFD.020)
 * @param parallelism number of parallel TCP data connections in MODE E (1..64); ignored in stream mode
 * @param dataChannelAuthentication DCAU for gsiftp:// sessions (GFD.020 "DCAU", RFC 2228 section 3 (PROT, PBSZ); GFD.020 "DCAU", RFC 2228 section 3 (PROT)), or
 *     null for the default: A when the server lists DCAU in FEAT, N otherwise
 * @param protection PROT level when DCAU is not N (C, S or P), or null for C
 * @param tarStreams whether third-party batches ({@link GridFtpSession#sendAll}) in MODE E may send
 *     small files as tar streams when both servers offer it (FEAT {@code TARSTREAM},
 *     {@link org.ferry.mover.protocol.TarModule}); default true
 */
public record TransferOptions(
        Mode mode,
        int parallelism,
        DataChannelAuthentication dataChannelAuthentication,
        ProtectionLevel protection,
        boolean tarStreams) {

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

    /**
     * Default data channel security.
     *
     * @param mode the transmission mode
     * @param parallelism number of parallel connections in MODE E (1..64)
     * @throws IllegalArgumentException if parallelism is outside 1..64
     */
    public TransferOptions(Mode mode, int parallelism) {
        this(mode, parallelism, null, null, true);
    }

    /** @return MODE E with {@code n} parallel streams */
    public static TransferOptions extendedBlock(int n) {
        return new TransferOptions(Mode.EXTENDED_BLOCK, n);
    }

    /**
     * @param dcau DCAU N, A or S (null for the default)
     * @return these options with that data channel authentication
     */
    public TransferOptions withDataChannelAuthentication(DataChannelAuthentication dcau) {
        return new TransferOptions(mode, parallelism, dcau, protection, tarStreams);
    }

    /**
     * @param level PROT C, S or P (null for C); S and P need DCAU A or S
     * @return these options with that protection level
     */
    public TransferOptions withProtection(ProtectionLevel level) {
        return new TransferOptions(mode, parallelism, dataChannelAuthentication, level, tarStreams);
    }

    /**
     * @param value false to move every file of a batch with its own STOR/RETR
     * @return these options with tar streams allowed or not
     */
    public TransferOptions withTarStreams(boolean value) {
        return new TransferOptions(mode, parallelism, dataChannelAuthentication, protection, value);
    }
}
