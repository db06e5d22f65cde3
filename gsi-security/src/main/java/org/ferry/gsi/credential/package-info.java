/** GSI credentials (private key + certificate chain) and the PEM files Globus tools read and write. */
package org.ferry.gsi.credential;
