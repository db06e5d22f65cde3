/**
 * Striping, the Globus striped server's decomposition (Allcock et al., "The Globus Striped GridFTP
 * Framework and Server", SC'05, section 5 and Figure 1): one server protocol interpreter (PI) on a
 * head node drives one data transfer process (DTP) per data node over an internal link whose
 * protocol "is unspecified and left up to the implementation". This package holds the internal
 * link protocol
 * ({@link org.ferry.mover.stripe.LinkMessage}, {@link org.ferry.mover.stripe.LinkCodec}, challenge /
 * response authentication in {@link org.ferry.mover.stripe.LinkAuth}), the block-to-stripe layout
 * ({@link org.ferry.mover.stripe.StripeLayout}, GFD.020 {@code StripeLayout=Blocked}) and the MODE E
 * sender of one stripe ({@link org.ferry.mover.stripe.StripeSends}); the data node that answers the
 * link ({@code server.dtp.DataNode}) lives with the DTPs it runs.
 */
package org.ferry.mover.stripe;
