/** Running data transfers from the protocol interpreter: preliminary/final replies, abort, markers. */
package org.ferry.mover.server.transfer;
