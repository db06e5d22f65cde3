/**
 * The TAR module of ERET and ESTO ({@link org.ferry.mover.protocol.TarModule}): batches of small
 * files as one tar stream, built and unpacked by the server (xio-popen driver paper, section 4.2).
 */
package org.ferry.mover.server.tar;
