/**
 * One handler per control channel command (RFC 959, RFC 3659, RFC 2428, GFD.020), registered in
 * {@link org.ferry.mover.server.pi.CommandRegistry} by verb, with typed policy (allowed before
 * login) and FEAT contributions.
 */
package org.ferry.mover.server.command;
