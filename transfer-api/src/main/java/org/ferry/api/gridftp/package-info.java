/** The GridFTP client as the service uses it: one client bean, endpoint logins. */
package org.ferry.api.gridftp;
