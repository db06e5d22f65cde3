/** The GridFTP client as the service uses it: one client bean (sessions open through {@link org.ferry.mover.access.EndpointSessions}). */
package org.ferry.api.gridftp;
