/**
 * Multicast: one source to several destinations with the source read once (seed 004; the Globus
 * {@code gridftp_multicast} XIO driver of globus-gridftp-server, which globus-url-copy {@code -mc}
 * selects with {@code SITE SETDISKSTACK file,gridftp_multicast:urls=...}). A receiving
 * ferry-gridftp writes the file and, while it is written, forwards it to the next servers of a tree
 * the client gives it; each of those does the same for its own subtree. See docs/files-api.md.
 */
package org.ferry.mover.server.multicast;
