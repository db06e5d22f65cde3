/**
 * Allow-listed programs on the data path (the Globus XIO Popen driver's behaviour, seed 003): a
 * client names a program and its arguments with {@code SITE SETDISKSTACK popen:argv=#prog#arg...}
 * (what {@code globus-url-copy -src-pipe} / {@code -dst-pipe} send), and the next RETR reads the
 * program's standard output, the next STOR feeds its standard input. Only programs on the server's
 * allow list run, with their arguments as an argv (never through a shell), an empty environment and
 * a time limit; a non-zero exit status and the program's standard error become the transfer's reply.
 */
package org.ferry.mover.server.popen;
