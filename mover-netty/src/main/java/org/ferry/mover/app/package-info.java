/**
 * The {@code ferry-gridftp} command (Picocli): the GridFTP server, a striped head node, a data node
 * and the password file helper, as one executable jar. The only package of mover-netty that uses
 * Picocli and Logback; both are optional dependencies, so the library's users do not inherit them.
 */
package org.ferry.mover.app;
