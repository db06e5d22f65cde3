/** A MyProxy client (MYPROXYv2 protocol, GET with passphrase), as {@code myproxy-logon} speaks it. */
package org.ferry.gsi.myproxy;
