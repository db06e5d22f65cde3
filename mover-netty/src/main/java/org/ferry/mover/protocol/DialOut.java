package org.ferry.mover.protocol;

/**
 * The FEAT line (RFC 2389) of a GridFTP server that accepts no inbound connection and should dial
 * its data connections itself: a Ferry Connect agent behind a firewall, whose passive listeners
 * are only reachable through its relay (seed 000, Globus Connect). A client driving a third-party
 * transfer makes such a server the active side: PORT to it, PASV to its peer. MODE E fixes the
 * sender as the active side (GFD.020), so into such a server from one that can be dialled the
 * client uses stream mode with the source passive, as Globus Online did for Globus Connect
 * destinations; between two of them the receiver's PASV goes through its relay.
 */
public final class DialOut {

    /** The FEAT line, without its leading space. */
    public static final String FEATURE = "DIALOUT";

    private DialOut() {}
}
