/** Listing line formats of the GridFTP server: MLSx facts (RFC 3659) and LIST ({@code ls -l}). */
package org.ferry.mover.server.listing;
