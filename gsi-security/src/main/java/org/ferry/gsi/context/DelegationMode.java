package org.ferry.gsi.context;

/** What the initiator delegates after the handshake (reference 4.1 step 5, 4.2). */
public enum DelegationMode {
    /** Send {@code '0'}: no delegation (the server then cannot do DCAU A). */
    NONE,
    /** Send {@code 'D'} and sign a limited proxy: what globus-url-copy does by default. */
    LIMITED,
    /** Send {@code 'D'} and sign an impersonation proxy. */
    FULL
}
