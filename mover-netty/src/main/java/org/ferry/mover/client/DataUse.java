package org.ferry.mover.client;

/**
 * What a session's cached MODE E data connections were last set up for (GFD.020 "Extended Block
 * Mode", data connection reuse). As globus's client ({@code globus_i_ftp_client_can_reuse_data_conn}),
 * connections are reused only in MODE E, for the same operation between the same pair, with no
 * PASV, PORT, MODE or DCAU/PROT change in between; a session with no usable connections has no
 * {@code DataUse} (null).
 */
sealed interface DataUse {

    /** Two-party uploads from this client: the connections lead to the server's PASV address. */
    DataUse UPLOAD = new Upload();

    /** Two-party downloads to this client: the server connected to our PORT listener. */
    DataUse DOWNLOAD = new Download();

    /** Two-party upload. */
    record Upload() implements DataUse {}

    /** Two-party download. */
    record Download() implements DataUse {}

    /**
     * Third-party sending: this session's server connected to {@code destination}'s server.
     *
     * @param destination the receiving session's control state (compared by identity)
     */
    record SendTo(SessionControl destination) implements DataUse {}

    /**
     * Third-party receiving: {@code source}'s server connected to this session's server.
     *
     * @param source the sending session's control state (compared by identity)
     */
    record ReceiveFrom(SessionControl source) implements DataUse {}
}
