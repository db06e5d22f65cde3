/**
 * The socket transport every event loop group and channel of the mover is made with: Netty's
 * native epoll transport on Linux, NIO elsewhere.
 */
package org.ferry.mover.net;
